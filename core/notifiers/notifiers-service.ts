/**
 * Household notifiers (mealie-api-notes §4.5, §9): Apprise URLs told about the household's events, one
 * option flag per event type. Names, flags and `enabled` live in the household's `notifiers.json`; the
 * Apprise URL itself carries tokens and passwords, so it is kept in `.larder/notifier-urls.json`
 * (per machine, mode 0600) and never returned by the API.
 *
 * Each URL scheme is served by a `notifier` plugin (`larder.plugins`). An event on the bus goes to every
 * enabled notifier of its household — of every household of the group for group-wide events — whose
 * flag for that event type is on. Deliveries run in the background and never fail the write that
 * published the event: a refusal or a remote error is logged; a plugin that throws unexpectedly is
 * disabled by the registry and reported.
 */
import { rowTimeAttributes, timed, type Timed } from "../query/row-times.js";
import dns from "node:dns";
import { z } from "zod";
import type { Actor } from "../actor.js";
import type { Parts } from "../parts.js";
import type { GroupData, HouseholdData } from "../groups/registry.js";
import { BadRequestError, LarderError, NotFoundError, ValidationError } from "../errors.js";
import { DocCache } from "../storage/doc-cache.js";
import { BrokenDocumentError, JsonDoc } from "../storage/json-doc.js";
import { ensurePrivateDirs } from "../storage/data-folder.js";
import { AttributeTable, attr } from "../query/attribute-table.js";
import { listQuery } from "../query/list.js";
import type { ListQuery, Page } from "../query/list-query.js";
import {
  AllowList,
  BlockedTargetError,
  OutboundFetchError,
  createGuardedFetcher,
  judgeTarget,
  parseAddress,
  type GuardedFetcher,
} from "../net/index.js";
import { privateHostMessage, privateHostProblem } from "../net/target-check.js";
import type { LarderEvent, EventType } from "../events/index.js";
import type { Notification, NotifierContext, NotifierPlugin } from "../plugins/kinds.js";
import { PluginInputError } from "../plugins/registry.js";
import { isUuid, newId } from "../util/ids.js";
import { lazySchema } from "../util/lazy-schema.js";

/** The parts of the Larder this module uses. */
type Deps = Pick<Parts, "config" | "events" | "folder" | "groups" | "log" | "plugins">;

/** Mealie's notifier options, in the contract's order: one per event type, plus v3's meal-plan and label flags. */
export const NOTIFIER_OPTIONS = [
  "testMessage",
  "webhookTask",
  "recipeCreated",
  "recipeUpdated",
  "recipeDeleted",
  "userSignup",
  "dataMigrations",
  "dataExport",
  "dataImport",
  "mealplanEntryCreated",
  "mealplanEntryUpdated",
  "mealplanEntryDeleted",
  "shoppingListCreated",
  "shoppingListUpdated",
  "shoppingListDeleted",
  "cookbookCreated",
  "cookbookUpdated",
  "cookbookDeleted",
  "tagCreated",
  "tagUpdated",
  "tagDeleted",
  "categoryCreated",
  "categoryUpdated",
  "categoryDeleted",
  "labelCreated",
  "labelUpdated",
  "labelDeleted",
] as const;
export type NotifierOption = (typeof NOTIFIER_OPTIONS)[number];

/** "recipe_created" → "recipeCreated": the option flag that lets an event type through. */
export function optionOf(type: EventType): NotifierOption {
  return type.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()) as NotifierOption;
}

const Options = lazySchema(() =>
  z.object(
    Object.fromEntries(NOTIFIER_OPTIONS.map((k) => [k, z.boolean().default(false)])) as Record<
      NotifierOption,
      z.ZodDefault<z.ZodBoolean>
    >,
  ),
);
type Options = z.infer<typeof Options>;

export const NotifierRecord = lazySchema(() =>
  z.object({
    id: z.string(),
    name: z.string(),
    enabled: z.boolean().default(true),
    optionsId: z.string(),
    options: Options.default(Options.parse({})),
    createdAt: z.string().nullable().default(null),
    updatedAt: z.string().nullable().default(null),
  }),
);
export type NotifierRecord = z.infer<typeof NotifierRecord>;
export const NotifiersDoc = lazySchema(() => z.object({ notifiers: z.array(NotifierRecord).default([]) }));
export type NotifiersDoc = z.infer<typeof NotifiersDoc>;
const NotifierUrlsDoc = lazySchema(() => z.object({ urls: z.record(z.string(), z.string()).default({}) }));
type NotifierUrlsDoc = z.infer<typeof NotifierUrlsDoc>;

const Name = lazySchema(() =>
  z.string().trim().min(1, "This Field is Required").max(255, "Must Be At Most 255 Characters"),
);
const AppriseUrlIn = lazySchema(() => z.string().max(4096, "Must Be At Most 4096 Characters").nullish());
export const NotifierCreate = lazySchema(() => z.object({ name: Name, appriseUrl: AppriseUrlIn }).loose());
export const NotifierUpdate = lazySchema(() =>
  z
    .object({
      name: Name,
      appriseUrl: AppriseUrlIn,
      enabled: z.boolean().default(true),
      options: z.record(z.string(), z.unknown()).nullish(),
    })
    .loose(),
);

/** GroupEventNotifierOut of the contract. */
export interface NotifierOut {
  id: string;
  name: string;
  enabled: boolean;
  groupId: string;
  householdId: string;
  options: Options & { id: string };
}

type N = NotifierOut;
export const notifierAttributes = new AttributeTable<Timed<NotifierOut>>("notifier", {
  ...rowTimeAttributes<N>(),
  id: attr.uuid((n: N) => n.id),
  name: attr.string((n: N) => n.name),
  enabled: attr.boolean((n: N) => n.enabled),
  groupId: attr.uuid((n: N) => n.groupId),
  householdId: attr.uuid((n: N) => n.householdId),
});

/** The longest one delivery may take, whatever the plugin does (each HTTP request has 15 s of its own). */
const SEND_LIMIT_MS = 60_000;

/** Mealie's test notification (`POST …/notifications/{id}/test`). */
const TEST_BODY = "This is a test event.";

export class NotifiersService {
  private readonly docs: DocCache<NotifiersDoc>;
  private readonly fetcher: GuardedFetcher;
  private readonly allow: AllowList;
  private pending = new Set<Promise<unknown>>();
  /** Scheme → plugin name, for every plugin seen enabled: a disabled plugin's scheme is "disabled", not "unknown". */
  private readonly schemeOwners = new Map<string, string>();

  private constructor(
    private readonly larder: Deps,
    private readonly urls: JsonDoc<NotifierUrlsDoc>,
  ) {
    this.docs = new DocCache<NotifiersDoc>({
      schema: NotifiersDoc,
      defaults: () => NotifiersDoc.parse({}),
      tmpDir: larder.folder.tmpDir,
      arraysSortedBy: ["notifiers"],
      onError: (path, e) => larder.log.error(`could not open ${path}:`, e),
    });
    this.fetcher = createGuardedFetcher(larder.config);
    this.allow = new AllowList(larder.config.fetchAllow);
  }

  /** The event options a notifier can subscribe to, in the contract's order (the settings screen lists them). */
  optionNames(): readonly NotifierOption[] {
    return NOTIFIER_OPTIONS;
  }

  static async open(larder: Deps): Promise<NotifiersService> {
    await ensurePrivateDirs(larder.folder);
    const urls = await JsonDoc.open<NotifierUrlsDoc>(larder.folder.notifierUrlsJson, {
      schema: NotifierUrlsDoc,
      defaults: () => NotifierUrlsDoc.parse({}),
      tmpDir: larder.folder.tmpDir,
      mode: 0o600,
    });
    const s = new NotifiersService(larder, urls);
    for (const g of larder.groups.all())
      for (const h of g.households.values()) await s.docs.get(s.pathOf(g, h));
    larder.events.subscribe((e) => s.onEvent(e));
    return s;
  }

  list(actor: Actor, query: ListQuery): Page<NotifierOut> {
    const { group, household } = this.scope(actor);
    const items = this.records(group, household).map((n) => timed(present(n, group, household), n));
    return listQuery(items, query, notifierAttributes, { defaultOrderBy: null });
  }

  get(actor: Actor, id: string): NotifierOut {
    const { group, household } = this.scope(actor);
    return present(this.record(group, household, id), group, household);
  }

  async create(actor: Actor, input: unknown): Promise<NotifierOut> {
    const { group, household } = this.scope(actor);
    const body = NotifierCreate.parse(input ?? {});
    const url = body.appriseUrl?.trim() || null;
    if (url) this.checkUrl(url);
    const now = new Date().toISOString();
    const rec = NotifierRecord.parse({
      id: newId(),
      name: body.name,
      enabled: true,
      optionsId: newId(),
      createdAt: now,
      updatedAt: now,
    });
    const doc = await this.docs.get(this.pathOf(group, household));
    this.assertWritable(doc);
    // The secret first: a notifier never exists without the URL it was created with.
    if (url) await this.urls.update((d) => void (d.urls[rec.id] = url));
    await doc.update((d) => void d.notifiers.push(rec));
    return present(rec, group, household);
  }

  /** PUT: a missing, null or empty `appriseUrl` keeps the stored one (clients never see it to send it back). */
  async update(actor: Actor, id: string, input: unknown): Promise<NotifierOut> {
    const { group, household } = this.scope(actor);
    const cur = this.record(group, household, id);
    const body = NotifierUpdate.parse(input ?? {});
    const url = body.appriseUrl?.trim() || null;
    if (url) this.checkUrl(url);
    const options = body.options
      ? Options.parse({ ...cur.options, ...pickOptions(body.options) })
      : cur.options;
    const next = NotifierRecord.parse({
      ...cur,
      name: body.name,
      enabled: body.enabled,
      options,
      updatedAt: new Date().toISOString(),
    });
    const doc = await this.docs.get(this.pathOf(group, household));
    this.assertWritable(doc);
    if (url) await this.urls.update((d) => void (d.urls[cur.id] = url));
    await doc.update((d) => {
      const i = d.notifiers.findIndex((n) => n.id === cur.id);
      if (i >= 0) d.notifiers[i] = next;
    });
    return present(next, group, household);
  }

  async remove(actor: Actor, id: string): Promise<void> {
    const { group, household } = this.scope(actor);
    const cur = this.record(group, household, id);
    const doc = await this.docs.get(this.pathOf(group, household));
    this.assertWritable(doc);
    await doc.update((d) => {
      d.notifiers = d.notifiers.filter((n) => n.id !== cur.id);
    });
    if (cur.id in this.urls.data.urls) await this.urls.update((d) => void delete d.urls[cur.id]);
  }

  /**
   * POST …/{id}/test: Mealie's "Test Message", sent now. Mealie answers 204 and sends in the background;
   * Larder waits, so a wrong URL or an unreachable service is a 400 naming the reason (decision 0036).
   */
  async test(actor: Actor, id: string): Promise<void> {
    const { group, household } = this.scope(actor);
    const cur = this.record(group, household, id);
    const url = this.urls.data.urls[cur.id];
    if (!url) throw new BadRequestError("This notifier has no Apprise URL");
    const now = new Date().toISOString();
    const notification: Notification = {
      title: "Test Message",
      body: TEST_BODY,
      extras: {
        event_type: "test_message",
        integration_id: "generic",
        document_data: JSON.stringify({ documentType: "generic", operation: "info" }),
        event_id: newId(),
        timestamp: now,
      },
    };
    try {
      await this.send(url, notification);
    } catch (e) {
      // A disabled or failed plugin is the server's fault (5xx); anything the service or the URL did is the caller's to fix.
      if (e instanceof LarderError && e.status >= 500 && !(e instanceof OutboundFetchError)) throw e;
      throw new BadRequestError(`The notifier test failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  /** Notifier files (the household's, and the URLs in .larder/) that a hand edit broke (`larder check`). */
  broken(): { path: string; message: string }[] {
    return [...this.docs.loaded(), this.urls].flatMap((d) =>
      d.broken ? [{ path: d.path, message: d.broken.message }] : [],
    );
  }

  /** Resolves when every delivery started so far has settled (tests, shutdown). */
  async idle(): Promise<void> {
    await this.larder.events.idle();
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
    await this.docs.idle();
    await this.urls.idle();
  }

  private onEvent(e: LarderEvent): void {
    const group = this.larder.groups.byId(e.groupId);
    if (!group) return;
    const flag = optionOf(e.eventType);
    const households = e.householdId
      ? [this.larder.groups.household(e.groupId, e.householdId)].filter((h): h is HouseholdData => !!h)
      : [...group.households.values()];
    const notification: Notification = {
      title: e.message.title,
      body: e.message.body,
      extras: {
        event_type: e.eventType,
        integration_id: e.integrationId,
        document_data: JSON.stringify(e.documentData),
        event_id: e.eventId,
        timestamp: e.timestamp,
      },
    };
    for (const h of households) {
      for (const n of this.records(group, h)) {
        if (!n.enabled || !n.options[flag]) continue;
        const url = this.urls.data.urls[n.id];
        if (!url) continue;
        const delivery = this.send(url, notification)
          .catch((err: unknown) => {
            const reason =
              (err as { reason?: string }).reason ?? (err instanceof Error ? err.message : String(err));
            this.larder.log.warn(`notifier "${n.name}" (${n.id}) could not send ${e.eventType}: ${reason}`);
          })
          .finally(() => this.pending.delete(delivery));
        this.pending.add(delivery);
      }
    }
  }

  /** Send through the scheme's plugin; rejects with why it could not. */
  private async send(url: string, notification: Notification): Promise<void> {
    const plugin = this.pluginFor(url);
    // A plugin that never settles (a third-party one ignoring its signal) must not pile up deliveries.
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const overdue = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const err = new LarderError(
          `The ${plugin.name} notifier did not finish within ${SEND_LIMIT_MS / 1000} s`,
          504,
        );
        controller.abort(err);
        reject(err);
      }, SEND_LIMIT_MS);
      timer.unref();
    });
    try {
      await Promise.race([
        this.larder.plugins.use(plugin, (p) =>
          p.send(url, notification, { ...this.context(), signal: controller.signal }),
        ),
        overdue,
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  private context(): NotifierContext {
    return {
      config: this.larder.config,
      log: this.larder.log,
      fetch: this.fetcher,
      resolveAllowed: (host) => resolveAllowed(host, this.allow),
    };
  }

  private pluginFor(url: string): NotifierPlugin {
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase() ?? "";
    const loaded = this.larder.plugins.all("notifier");
    for (const p of loaded)
      for (const sc of p.schemes) if (!this.schemeOwners.has(sc)) this.schemeOwners.set(sc, p.name);
    const plugin = loaded.find((p) => p.schemes.includes(scheme));
    if (plugin) return plugin;
    const owner = this.schemeOwners.get(scheme);
    if (owner) {
      const status = this.larder.plugins.list().find((st) => st.kind === "notifier" && st.name === owner);
      throw new LarderError(
        `The notifier for ${scheme}:// is disabled: ${status?.error ?? "it failed"}`,
        503,
      );
    }
    const supported = [...this.schemeOwners.keys()].map((k) => `${k}://`).join(", ");
    throw new PluginInputError(`Unknown notifier scheme '${scheme}'; supported: ${supported}`, 422);
  }

  /** On save: a known scheme, a URL its plugin can read, and no private endpoint unless allowed — else 422. */
  private checkUrl(url: string): void {
    const issue = (msg: string) =>
      new ValidationError([{ loc: ["body", "appriseUrl"], msg, type: "value_error" }]);
    let plugin: NotifierPlugin;
    try {
      plugin = this.pluginFor(url);
    } catch (e) {
      throw issue((e as Error).message);
    }
    let endpoints: string[] = [];
    try {
      endpoints = plugin.check?.(url, this.context()) ?? [];
    } catch (e) {
      if (e instanceof PluginInputError) throw issue(e.message);
      throw new LarderError(this.larder.plugins.fault(plugin, e), 500);
    }
    for (const endpoint of endpoints) {
      let host: string;
      try {
        host = new URL(endpoint).hostname;
      } catch {
        throw issue("The notifier could not work out where it would send to");
      }
      const problem = privateHostProblem(host, this.allow);
      if (problem) throw issue(privateHostMessage(problem));
    }
  }

  /** Both documents a change touches must be writable before either is written (a hand edit gone wrong). */
  private assertWritable(doc: JsonDoc<NotifiersDoc>): void {
    for (const d of [doc, this.urls] as JsonDoc<unknown>[]) {
      if (d.broken) throw new BrokenDocumentError(d.path, d.broken.message);
    }
  }

  private scope(actor: Actor): { group: GroupData; household: HouseholdData } {
    const { group, household } = this.larder.groups.scopeOf(actor);
    return { group, household };
  }

  private pathOf(g: GroupData, h: HouseholdData): string {
    return this.larder.folder.notifiersJson(g.slug, h.slug);
  }

  private records(g: GroupData, h: HouseholdData): NotifierRecord[] {
    return this.docs.data(this.pathOf(g, h)).notifiers;
  }

  private record(g: GroupData, h: HouseholdData, id: string): NotifierRecord {
    const found = isUuid(id) ? this.records(g, h).find((n) => n.id === id.toLowerCase()) : undefined;
    if (!found) throw new NotFoundError();
    return found;
  }
}

function pickOptions(raw: Record<string, unknown>): Partial<Options> {
  const out: Partial<Options> = {};
  for (const k of NOTIFIER_OPTIONS) {
    const snake = k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    const v = raw[k] ?? raw[snake];
    if (typeof v === "boolean") out[k] = v;
    else if (v !== undefined && v !== null)
      throw new ValidationError([
        { loc: ["body", "options", k], msg: "Input should be a valid boolean", type: "bool_type", input: v },
      ]);
  }
  return out;
}

function present(n: NotifierRecord, g: GroupData, h: HouseholdData): NotifierOut {
  return {
    id: n.id,
    name: n.name,
    enabled: n.enabled,
    groupId: g.doc.data.id,
    householdId: h.doc.data.id,
    options: { ...n.options, id: n.optionsId },
  };
}

/** Resolve a host for a non-HTTP protocol and return one address the fetch policy allows. */
async function resolveAllowed(hostname: string, allow: AllowList): Promise<string> {
  const bare = hostname.replace(/^\[|\]$/g, "");
  const literal = parseAddress(bare);
  const addresses = literal ? [bare] : (await dns.promises.lookup(bare, { all: true })).map((a) => a.address);
  const parsed = addresses.map((a) => parseAddress(a)).filter((a): a is NonNullable<typeof a> => a !== null);
  const verdict = judgeTarget(bare, parsed, allow);
  if (!verdict.allowed) throw new BlockedTargetError(`smtp://${bare}`, verdict.reason ?? "blocked");
  return addresses[0];
}
