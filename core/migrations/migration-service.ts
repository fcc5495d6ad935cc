/**
 * Migrations from other recipe apps (mealie-api-notes §12): a `migration` plugin reads the upload into
 * recipes in Mealie's shape; this service creates each one through `larder.imports` (one atomic write,
 * the caller as owner, household defaults, organizers by name, a "Recipe Created" event, the image)
 * and writes a group report with an entry per recipe in Mealie's wording.
 *
 * Re-running is safe: every recipe brought in is remembered by its source id in the group's
 * `migrations.json`, and a recipe whose original URL and name match one already in the group is also
 * taken as the same recipe; such entries are skipped and the report says so. A failed entry writes
 * nothing (the import's write is the commit point) and the others still import.
 */
import type { Actor } from "../actor.js";
import type { Parts } from "../parts.js";
import type { GroupData } from "../groups/registry.js";
import type { MigratedEntry, MigrationPlugin } from "../plugins/kinds.js";
import { ForbiddenError, LarderError, ValidationError } from "../errors.js";
import type { MigratedGroup, MigratedSite } from "../plugins/kinds.js";
import { importGroup, type GroupImportResult } from "./site-import.js";
import type { ReportSummary, ReportWriter } from "../reports/reports-service.js";
import { MigrationIndex, sourceKeys } from "./migration-index.js";
import { fitToLimits } from "./fit-limits.js";

/** The parts of the Larder this module uses. */
type Deps = Pick<
  Parts,
  | "comments"
  | "cookbooks"
  | "folder"
  | "groups"
  | "imports"
  | "labels"
  | "log"
  | "mealplans"
  | "organizers"
  | "plugins"
  | "ratings"
  | "recipes"
  | "reports"
  | "shopping"
  | "users"
  | "vocabulary"
>;

/** How long a request waits for a migration before answering with the report still in progress. */
export const FOREGROUND_MS = 20_000;

export type EntryOutcome =
  | { status: "imported"; name: string; slug: string; warnings?: string[] }
  /** Already here as `slug`; or, with `reason` and no slug, an entry of the archive passed over as unsafe. */
  | { status: "skipped"; name: string; slug: string; reason?: string }
  | { status: "failed"; name: string; error: string };

export interface MigrationProgress {
  done: number;
  /** Known once the reader has listed the archive; null while it is still reading. */
  total: number | null;
  last: EntryOutcome;
}

export interface MigrationOptions {
  type: string;
  /** The uploaded archive (or a folder, from the CLI). Read only; the caller removes an upload. */
  path: string;
  /** Add a tag named after the migration type (Mealie's `add_migration_tag`). */
  addMigrationTag?: boolean;
  /** Wait this long before answering with the report in progress (0: answer at once). */
  foregroundMs?: number;
  /** Called after each entry (the CLI's progress bar). */
  onProgress?: (p: MigrationProgress) => void;
  /** Called once the migration has finished, in the foreground or not (the route removes the upload). */
  onFinished?: () => Promise<void> | void;
}

export interface MigrationResult {
  report: ReportSummary;
  /** Settles when the migration has finished (at once when it finished in the foreground). */
  done: Promise<MigrationSummary>;
}

export interface MigrationSummary {
  reportId: string;
  /** The group it went into (whole-site imports name each). */
  group?: string;
  /** What the report says besides the recipes (users who must reset their password…). */
  notes?: string[];
  status: ReportSummary["status"];
  imported: number;
  skipped: number;
  failed: number;
  entries: EntryOutcome[];
}

/** Python's str.title(), as Mealie names its reports: "mealie_alpha" → "Mealie_Alpha". */
export function pyTitle(s: string): string {
  return s.replace(/[A-Za-z]+/g, (w) => w[0].toUpperCase() + w.slice(1).toLowerCase());
}

export class MigrationService {
  private background = new Set<Promise<unknown>>();
  private indexes = new Map<string, MigrationIndex>();

  constructor(private readonly larder: Deps) {}

  /** The migration types the registered plugins read. */
  types(): string[] {
    return this.larder.plugins.all("migration").flatMap((p) => [...p.types]);
  }

  pluginFor(type: string): MigrationPlugin {
    const plugin = this.larder.plugins.all("migration").find((p) => p.types.includes(type));
    if (!plugin) {
      const known = this.types();
      throw new ValidationError([
        {
          loc: ["body", "migration_type"],
          msg: `Input should be ${known.map((t) => `'${t}'`).join(", ")}`,
          type: "enum",
          input: type,
          ctx: { expected: known.map((t) => `'${t}'`).join(", ") },
        },
      ]);
    }
    return plugin;
  }

  /**
   * Start a migration into the actor's group. The archive is opened and its first recipe read before
   * the report is made, so an upload of the wrong kind is a 400 that writes nothing. Resolves with the
   * final report when the migration ends within `foregroundMs`, else with the report in progress.
   */
  async start(actor: Actor, opts: MigrationOptions): Promise<MigrationResult> {
    const { group } = this.larder.groups.scopeOf(actor);
    const plugin = this.pluginFor(opts.type);
    if (plugin.readSite) return this.startSiteGroup(actor, group, plugin, opts);
    const ctx = this.larder.imports.pluginContext();
    const counted = { total: null as number | null };
    const iterator = plugin
      .migrate({ path: opts.path, type: opts.type, onTotal: (n) => (counted.total = n) }, ctx)
      [Symbol.asyncIterator]();
    let first: IteratorResult<MigratedEntry>;
    try {
      first = await this.larder.plugins.use(plugin, () => iterator.next());
    } catch (e) {
      await iterator.return?.().catch(() => undefined);
      throw e;
    }
    const report = await this.larder.reports.start(actor, {
      name: `${pyTitle(opts.type)} Migration`,
      category: "migration",
    });
    const run = this.run(actor, group, plugin, opts, iterator, first, report, counted);
    const tracked = run.finally(async () => {
      this.background.delete(tracked);
      await opts.onFinished?.();
    });
    this.background.add(tracked);
    return this.answer(actor, report.id, tracked, opts);
  }

  /** The report as it stands once the migration finished or the foreground time ran out. */
  private async answer(
    actor: Actor,
    reportId: string,
    tracked: Promise<MigrationSummary>,
    opts: MigrationOptions,
  ): Promise<MigrationResult> {
    const wait = opts.foregroundMs ?? FOREGROUND_MS;
    let timer: NodeJS.Timeout | undefined;
    const finished = await Promise.race([
      tracked.then(() => true),
      new Promise<false>((r) => {
        timer = setTimeout(() => r(false), wait);
      }),
    ]).finally(() => clearTimeout(timer));
    const summary = await this.larder.reports.get(actor, reportId);
    const { entries: _entries, ...reportSummary } = summary;
    if (finished) return { report: reportSummary, done: tracked };
    return { report: { ...reportSummary, status: "in-progress" }, done: tracked };
  }

  /**
   * A whole-site backup through the API: one of its groups into the caller's group (the one with the
   * caller's group's name, else the one with the most recipes). Only an admin may: it creates users.
   */
  private async startSiteGroup(
    actor: Actor,
    group: GroupData,
    plugin: MigrationPlugin,
    opts: MigrationOptions,
  ): Promise<MigrationResult> {
    if (actor.kind !== "user" || !actor.user.admin) {
      throw new ForbiddenError(
        "Only an admin may bring in a Mealie backup: it creates users and group-wide data",
      );
    }
    const site = await this.readSite(plugin, opts);
    let src: MigratedGroup;
    let report: ReportWriter;
    try {
      src = pickGroup(site, group.doc.data.name);
      report = await this.larder.reports.start(actor, {
        name: `${pyTitle(opts.type)} Migration`,
        category: "migration",
      });
    } catch (e) {
      site.close?.();
      throw e;
    }
    const skipped = site.groups.filter((g) => g !== src && (g.recipes.length || g.users.length));
    const run = (async (): Promise<MigrationSummary> => {
      const index = await this.indexFor(group);
      const result = await importGroup(this.larder, group, src, {
        fallback: actor,
        index,
        makeReport: async () => report,
        onProgress: opts.onProgress,
        total: src.recipes.length,
        doneBefore: 0,
      }).catch(async (e: unknown) => {
        report.add({ success: false, message: "Failed to import the backup", exception: errorText(e) });
        return null;
      });
      const notes = [
        `Read ${site.source}; brought in its group '${src.name}'.`,
        ...(skipped.length
          ? [
              `Not brought in (the API takes one group; larder migrate --from mealie_backup takes the whole site): ${skipped.map((g) => `'${g.name}'`).join(", ")}.`,
            ]
          : []),
        ...(result ? [countsNote(result.counts), ...result.notes] : []),
      ];
      for (const n of notes) report.add({ success: true, message: n });
      const unsafe = unsafeOutcomes(site);
      for (const o of unsafe) reportOutcome(report, o);
      await index.flush();
      const final = await report.finish();
      return summaryOf(report.id, final.status, [...(result?.outcomes ?? []), ...unsafe], notes);
    })();
    const tracked = run.finally(async () => {
      site.close?.();
      this.background.delete(tracked);
      await opts.onFinished?.();
    });
    this.background.add(tracked);
    return this.answer(actor, report.id, tracked, opts);
  }

  private async readSite(plugin: MigrationPlugin, opts: MigrationOptions): Promise<MigratedSite> {
    const ctx = this.larder.imports.pluginContext();
    return this.larder.plugins.use(plugin, (p) => p.readSite!({ path: opts.path, type: opts.type }, ctx));
  }

  /**
   * A whole site (the CLI): each group of the backup that has users or recipes goes into the Larder
   * group of the same name, made when there is none, with a report of its own.
   */
  async importSite(opts: Omit<MigrationOptions, "foregroundMs" | "onFinished">): Promise<MigrationSummary[]> {
    const plugin = this.pluginFor(opts.type);
    if (!plugin.readSite)
      throw new LarderError(
        `The ${opts.type} migration reads one group's recipes, not a whole site: name a group`,
        400,
      );
    const site = await this.readSite(plugin, opts);
    try {
      return await this.importSiteGroups(site, opts);
    } finally {
      site.close?.();
    }
  }

  private async importSiteGroups(
    site: MigratedSite,
    opts: Omit<MigrationOptions, "foregroundMs" | "onFinished">,
  ): Promise<MigrationSummary[]> {
    const total = site.groups.reduce((n, g) => n + g.recipes.length, 0);
    const out: MigrationSummary[] = [];
    let done = 0;
    for (const src of site.groups.filter((g) => g.recipes.length || g.users.length)) {
      const target =
        this.larder.groups.all().find((g) => g.doc.data.name.toLowerCase() === src.name.toLowerCase()) ??
        (await this.larder.groups.createGroup(src.name || "Mealie", "Family"));
      const index = await this.indexFor(target);
      let report: ReportWriter | null = null;
      try {
        const result = await importGroup(this.larder, target, src, {
          index,
          makeReport: async (a) =>
            (report = await this.larder.reports.start(a, {
              name: `${pyTitle(opts.type)} Migration`,
              category: "migration",
            })),
          onProgress: opts.onProgress,
          total,
          doneBefore: done,
        });
        done += src.recipes.length;
        const notes = [
          `Read ${site.source}; brought in its group '${src.name}' as '${target.slug}'.`,
          countsNote(result.counts),
          ...result.notes,
        ];
        for (const n of notes) result.report.add({ success: true, message: n });
        // The archive's unsafe entries are the site's, not a group's: said once, in the first report.
        const unsafe = out.length === 0 ? unsafeOutcomes(site) : [];
        for (const o of unsafe) reportOutcome(result.report, o);
        await index.flush();
        const final = await result.report.finish();
        out.push({
          ...summaryOf(result.report.id, final.status, [...result.outcomes, ...unsafe], notes),
          group: target.slug,
        });
      } catch (e) {
        const w = report as ReportWriter | null;
        if (w) {
          w.add({ success: false, message: "Failed to import the backup", exception: errorText(e) });
          await w.finish();
        }
        out.push({
          ...summaryOf(
            w?.id ?? "",
            "failure",
            [{ status: "failed", name: `group ${src.name}`, error: errorText(e) }],
            [],
          ),
          group: target.slug,
        });
      }
    }
    return out;
  }

  /** Resolves when every migration started so far has finished (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.background.size > 0) await Promise.allSettled([...this.background]);
  }

  private async run(
    actor: Actor,
    group: GroupData,
    plugin: MigrationPlugin,
    opts: MigrationOptions,
    iterator: AsyncIterator<MigratedEntry>,
    first: IteratorResult<MigratedEntry>,
    report: ReportWriter,
    counted: { total: number | null },
  ): Promise<MigrationSummary> {
    const index = await this.indexFor(group);
    const occurrences = new Map<string, number>();
    const outcomes: EntryOutcome[] = [];
    const record = (o: EntryOutcome) => {
      outcomes.push(o);
      reportOutcome(report, o);
      opts.onProgress?.({ done: outcomes.length, total: counted.total, last: o });
    };
    let next = first;
    try {
      while (!next.done) {
        record(await this.one(actor, group, index, opts, next.value, occurrences));
        next = await this.larder.plugins.use(plugin, () => iterator.next());
      }
    } catch (e) {
      // The reader broke part-way (a truncated archive): what was imported stays, and the report says where it stopped.
      record({ status: "failed", name: "the rest of the archive", error: errorText(e) });
      await iterator.return?.().catch(() => undefined);
    }
    await index.flush();
    const final = await report.finish();
    return {
      reportId: report.id,
      status: final.status,
      imported: outcomes.filter((o) => o.status === "imported").length,
      skipped: outcomes.filter((o) => o.status === "skipped").length,
      failed: outcomes.filter((o) => o.status === "failed").length,
      entries: outcomes,
    };
  }

  /** One recipe: skip it when already here, else create it in one write. */
  private async one(
    actor: Actor,
    group: GroupData,
    index: MigrationIndex,
    opts: MigrationOptions,
    entry: MigratedEntry,
    occurrences: Map<string, number>,
  ): Promise<EntryOutcome> {
    if (!entry.ok) return outcomeOfUnread(entry);
    const fitted = fitToLimits(entry.imported.recipe);
    const recipe = { ...fitted.recipe };
    const warnings = [...(entry.warnings ?? []), ...fitted.cut];
    const name = typeof recipe.name === "string" && recipe.name.trim() ? recipe.name.trim() : entry.name;
    const orgURL = typeof recipe.orgURL === "string" ? recipe.orgURL : null;
    const keys = sourceKeys(opts.type, entry.sourceId ?? null, name).map((k) => nthKey(k, occurrences));
    const existing = index.find(keys, name, orgURL);
    if (existing) return { status: "skipped", name, slug: existing.slug };
    try {
      if (opts.addMigrationTag) {
        const tags = Array.isArray(recipe.tags) ? [...(recipe.tags as unknown[])] : [];
        tags.push({ name: opts.type });
        recipe.tags = tags;
      }
      const dates = {
        dateAdded: typeof recipe.dateAdded === "string" ? recipe.dateAdded : null,
        lastMade: typeof recipe.lastMade === "string" ? recipe.lastMade : null,
      };
      const created = await this.larder.imports.create(
        actor,
        { ...entry.imported, recipe },
        {
          tags: true,
          categories: true,
          source: `migration:${opts.type}`,
          dates,
          ...(keys[0] ? { id: index.recipeIdFor(keys[0]) } : {}),
        },
      );
      index.remember(keys, created.id);
      const rating = typeof recipe.rating === "number" && recipe.rating > 0 ? recipe.rating : null;
      if (rating !== null && actor.kind === "user") {
        // The rating was the person's own in the app they left; a failure here does not undo the recipe.
        await this.larder.ratings.set(actor, actor.user.id, created.id, { rating }).catch((e: unknown) => {
          this.larder.log.warn(`migration: the rating of "${created.name}" was not kept: ${errorText(e)}`);
        });
      }
      return {
        status: "imported",
        name: created.name,
        slug: created.slug,
        ...(warnings.length ? { warnings } : {}),
      };
    } catch (e) {
      return { status: "failed", name, error: errorText(e) };
    }
  }

  async indexFor(group: GroupData): Promise<MigrationIndex> {
    let idx = this.indexes.get(group.slug);
    if (!idx) {
      idx = await MigrationIndex.open(this.larder, group);
      this.indexes.set(group.slug, idx);
    }
    return idx;
  }
}

/**
 * The key of the n-th entry of one archive with the same source id: readers whose app has no ids fall
 * back on the name (two Tandoor recipes both called "Pancakes", one CopyMeThat recipe saved twice and
 * edited), and a second entry of the same archive is another recipe, not one "already imported". The
 * first keeps the plain key and the order of the archive numbers the others, so a re-run finds each
 * again. A page's address and name together (`url:`) do name one recipe: those are not numbered.
 */
function nthKey(key: string, occurrences: Map<string, number>): string {
  if (key.startsWith("url:")) return key;
  const n = (occurrences.get(key) ?? 0) + 1;
  occurrences.set(key, n);
  return n === 1 ? key : `${key}#${n}`;
}

function summaryOf(
  reportId: string,
  status: MigrationSummary["status"],
  outcomes: EntryOutcome[],
  notes: string[],
): MigrationSummary {
  return {
    reportId,
    status,
    imported: outcomes.filter((o) => o.status === "imported").length,
    skipped: outcomes.filter((o) => o.status === "skipped").length,
    failed: outcomes.filter((o) => o.status === "failed").length,
    entries: outcomes,
    notes,
  };
}

function countsNote(c: GroupImportResult["counts"]): string {
  return `Brought in ${c.users} users, ${c.labels} labels, ${c.foods} foods, ${c.units} units, ${c.cookbooks} cookbooks, ${c.comments} comments, ${c.ratings} ratings, ${c.mealplans} meal plan entries and ${c.shoppingLists} shopping lists.`;
}

/** The backup group for a Larder group: the same name, else the one with the most recipes. */
export function pickGroup(site: MigratedSite, name: string): MigratedGroup {
  if (site.groups.length === 0) throw new LarderError("The backup holds no group", 400);
  return (
    site.groups.find((g) => g.name.toLowerCase() === name.toLowerCase()) ??
    [...site.groups].sort((a, b) => b.recipes.length - a.recipes.length || b.users.length - a.users.length)[0]
  );
}

/** One recipe's line in the group report, in Mealie's words; what was left out of it is said on it. */
export function reportOutcome(report: ReportWriter, o: EntryOutcome): void {
  if (o.status === "imported") {
    // What was left out rides in `exception`, beside a success: the report marks the entry, and a
    // client that reads only `success` still counts the recipe as brought in.
    const left = o.warnings?.length ? o.warnings.join("; ") : "";
    report.add({
      success: true,
      message: `Imported ${o.name} successfully`,
      ...(left ? { exception: left } : {}),
    });
  } else if (o.status === "skipped" && o.reason !== undefined)
    report.add({ success: true, message: `Skipped ${o.name}`, exception: o.reason });
  else if (o.status === "skipped")
    report.add({ success: true, message: `Skipped ${o.name}: already imported as ${o.slug}` });
  else report.add({ success: false, message: `Failed to import ${o.name}`, exception: o.error });
}

function unsafeOutcomes(site: MigratedSite): EntryOutcome[] {
  return (site.skipped ?? []).flatMap((e) => (e.ok ? [] : [outcomeOfUnread(e)]));
}

/** An entry that brought no recipe: one that failed, or an unsafe entry of the archive passed over. */
export function outcomeOfUnread(entry: Extract<MigratedEntry, { ok: false }>): EntryOutcome {
  return entry.skipped
    ? { status: "skipped", name: entry.name, slug: "", reason: entry.error }
    : { status: "failed", name: entry.name, error: entry.error };
}

export function errorText(e: unknown): string {
  if (e instanceof LarderError) return e.message;
  // A recipe the schema refuses: each problem on one line, not the validator's JSON.
  const issues = (e as { issues?: unknown })?.issues;
  if (e instanceof Error && e.name === "ZodError" && Array.isArray(issues))
    return issues
      .map((i: { path?: unknown[]; message?: string }) =>
        [i.path?.length ? i.path.join(".") : "", i.message ?? ""].filter(Boolean).join(": "),
      )
      .join("; ");
  if (e instanceof Error) return `${e.name}: ${e.message}`;
  return String(e);
}
