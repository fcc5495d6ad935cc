/**
 * Creating recipes from imported data (issue 15): page, HTML/JSON, zip and photo imports, and the
 * migrations, all end here. One call is one atomic write of the recipe file: everything that can fail
 * (validation, the image, the ingredient parser) runs before it, the image original is written into
 * the new recipe's media folder just before the file, and a failure of the file write removes that
 * folder again. The recipe file is the commit point: no file, no recipe, nothing half-written.
 */
import { mkdir, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Parts } from "../parts.js";
import type { Config } from "../config.js";
import type { Actor } from "../actor.js";
import type { GroupData } from "../groups/registry.js";
import type { UserRecord } from "../schemas/records.js";
import { RecipeInput, RECIPE_SETTINGS_DEFAULTS } from "../schemas/recipe.js";
import { recipeToDoc } from "../recipes/wire.js";
import { buildWireContext } from "../recipes/wire-context.js";
import { emptyRecipeDoc } from "../recipes/doc.js";
import { parseIngredientLine } from "../recipes/file/ingredient-line.js";
import { COPIED_FIELDS } from "../recipes/fields.js";
import type { RecipeEntry } from "../recipes/store/index.js";
import { BadContentTypeError, createGuardedFetcher, type GuardedFetcher } from "../net/index.js";
import type { ImportedRecipe, ImporterPlugin, ImportInput, PluginContext } from "../plugins/kinds.js";
import { BadRequestError, ForbiddenError } from "../errors.js";
import { imageContentType, sniffImage } from "../media/image-check.js";
import { markPendingMedia } from "./pending-media.js";
import { OpenAIClient, openAISettings, type ChatMessage } from "../ai/openai-client.js";
import { aiFetcher, openAIImageServices } from "../ai/ai-endpoint.js";
import { BadRecipeDataError } from "./errors.js";
import { htmlOrJsonInput } from "./html-or-json.js";
import { newId } from "../util/ids.js";
import { fileSlug, slugify } from "../util/slug.js";

/** The parts of the Larder this module uses. */
type Deps = Pick<
  Parts,
  | "aiProviders"
  | "comments"
  | "config"
  | "events"
  | "folder"
  | "groups"
  | "images"
  | "log"
  | "parsers"
  | "plugins"
  | "ratings"
  | "recipes"
  | "reports"
  | "users"
>;

const IMAGE_TIMEOUT_MS = 20_000;

/** Text an imported recipe may carry: its name, description and plain content fields (core/recipes/fields.ts). */
const TEXT_FIELDS = [
  "name",
  "description",
  ...COPIED_FIELDS.filter((f) => f.content && f.kind === "text").map((f) => f.wire),
];
/** Its numbers (servings, yield quantity). */
const COUNT_FIELDS = COPIED_FIELDS.filter((f) => f.kind === "count").map((f) => f.wire);
/** Mealie's browser-like agent: some sites serve images only to browsers. */
export const BROWSER_USER_AGENT = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";

export interface ImportOptions {
  /** Keep the imported keywords as tags (Mealie's `includeTags`). Default true. */
  tags?: boolean;
  /** Keep the imported categories (Mealie's `includeCategories`). Default true. */
  categories?: boolean;
  /** Replace the imported tags or categories (bulk import's per-URL `tags`/`categories`). */
  replaceTags?: ReadonlyArray<string | { name?: string | null }> | null;
  replaceCategories?: ReadonlyArray<string | { name?: string | null }> | null;
  /** Where the recipe came from, for the log: `url`, `html`, `zip`, `image`, `migration:paprika`… */
  source?: string;
  /** Read plain ingredient lines into quantity, unit and food as the recipe file does (default true). */
  parseIngredients?: boolean;
  /** Dates the source app kept (migrations): when the recipe was added there, when it was last made. */
  dates?: { dateAdded?: string | null; lastMade?: string | null };
  /**
   * The id the recipe gets when no recipe has it yet (migrations derive it from the source, so a run
   * cut short before it noted what it made still finds the recipe on the next run).
   */
  id?: string;
  signal?: AbortSignal;
}

/** What `createRecipe` made. */
export interface ImportResult {
  slug: string;
  id: string;
  name: string;
}

/** At most this many pages are fetched at once by a bulk import. */
export const BULK_CONCURRENCY = 3;

export interface BulkItem {
  url: string;
  tags?: ReadonlyArray<string | { name?: string | null }> | null;
  categories?: ReadonlyArray<string | { name?: string | null }> | null;
}

export class ImportService {
  private fetcher: GuardedFetcher;
  private background = new Set<Promise<void>>();

  constructor(private readonly larder: Deps) {
    this.fetcher = createGuardedFetcher(larder.config);
  }

  /** `createRecipe` returning only the slug, as Mealie's create routes answer. */
  async createRecipe(actor: Actor, imported: ImportedRecipe, opts: ImportOptions = {}): Promise<string> {
    return (await this.create(actor, imported, opts)).slug;
  }

  /**
   * Create one recipe from imported data, owned by the caller, with the caller's household defaults,
   * organizers, foods and units by name, a free name and slug, the image stored like an upload, the
   * source URL kept, a "Recipe Created" timeline event and a `recipe_created` event.
   */
  async create(actor: Actor, imported: ImportedRecipe, opts: ImportOptions = {}): Promise<ImportResult> {
    const { user, group } = this.larder.groups.scopeOf(actor);
    const raw = normaliseImported(imported.recipe ?? {}, opts);
    const body = RecipeInput.parse(raw);
    const recipes = this.larder.recipes;
    const wanted = importedName(body.name);
    let { name, slug } = this.freeNameOrSuffix(group, recipes.checkName(wanted));

    const merged: Record<string, unknown> = { ...body, name };
    if (opts.parseIngredients !== false) {
      merged.recipeIngredient = this.readIngredients(
        group,
        (merged.recipeIngredient ?? []) as Record<string, unknown>[],
      );
    }
    // The image is fetched and checked before anything is written; a bad one is dropped, as in Mealie.
    const imageBytes = await this.imageBytes(imported.image, opts);

    await recipes.ensureVocabulary(group, merged);
    const lookups = recipes.lookupsFor(group.slug);
    const id = opts.id && !recipes.store.getById(opts.id) ? opts.id : newId();
    const now = new Date().toISOString();
    // The slug may have been taken while the image downloaded: choose again.
    ({ name, slug } = this.freeNameOrSuffix(group, name));
    merged.name = name;
    const draft: RecipeEntry = {
      groupSlug: group.slug,
      slug,
      doc: { ...emptyRecipeDoc(name), id, owner: user.id, dateAdded: now, dateUpdated: now },
      id,
      file: { mtimeMs: 0, size: 0, hash: "" } as unknown as RecipeEntry["file"],
      seenAt: null,
      vocabularyVersion: lookups.version(),
    };
    const ctx = buildWireContext(this.larder, group, lookups, draft);
    const doc = recipeToDoc(merged, { ...ctx, slug });
    doc.id = id;
    doc.owner = user.id;
    doc.dateAdded = opts.dates?.dateAdded ?? now;
    doc.dateUpdated = now;
    doc.lastMade = opts.dates?.lastMade ?? null;
    doc.assets = [];
    doc.settings = { ...householdSettings(this.larder, group, user), ...doc.settings };

    const mediaDir = this.larder.folder.recipeMediaDir(group.slug, slug);
    const mediaExisted = await stat(mediaDir).then(
      () => true,
      () => false,
    );
    // A kill between the image and the file must not leave the folder behind (pending-media.ts).
    const pending = imageBytes && !mediaExisted ? await markPendingMedia(this.larder.folder, mediaDir) : null;
    try {
      if (imageBytes) {
        doc.image = await this.larder.images
          .storeNewRecipeOriginal(group.slug, slug, imageBytes)
          .catch((e: unknown) => {
            this.larder.log.warn(
              `import: the image of "${name}" was not kept:`,
              e instanceof Error ? e.message : e,
            );
            return null;
          });
      }
      await recipes.store.create(group.slug, slug, doc);
    } catch (e) {
      // A media folder left by a recipe deleted by hand is not ours to remove; one we made is.
      if (!mediaExisted) await rm(mediaDir, { recursive: true, force: true }).catch(() => undefined);
      await pending?.done();
      throw e;
    }
    await pending?.done();
    this.larder.events.publish({
      eventType: "recipe_created",
      groupId: group.doc.data.id,
      householdId: user.householdId ?? null,
      documentData: { documentType: "recipe", operation: "create", recipeSlug: slug },
    });
    this.larder.log.info(`import${opts.source ? ` (${opts.source})` : ""}: created "${name}" as ${slug}`);
    return { slug, id, name };
  }

  /** Whether photo import is on (OPENAI_API_KEY set, image services not turned off): app info, the UI. */
  imageServicesEnabled(): boolean {
    return openAIImageServices(this.larder.config);
  }

  /**
   * The context handed to importer and parser plugins; `openai` replaces the OPENAI_* settings with
   * the caller's group provider (core/ai/providers.ts).
   */
  pluginContext(signal?: AbortSignal, openai?: Config["openai"]): PluginContext {
    const config = openai ? { ...this.larder.config, openai } : this.larder.config;
    return { config, log: this.larder.log, fetch: this.fetcher, signal };
  }

  /** The first enabled importer that accepts the input (a `name` picks one). */
  importerFor(input: ImportInput, name?: string): ImporterPlugin {
    const candidates = name
      ? [this.larder.plugins.get("importer", name)].filter((p): p is ImporterPlugin => !!p)
      : this.larder.plugins.all("importer");
    const found = candidates.find((p) => {
      try {
        return p.accepts(input);
      } catch {
        return false;
      }
    });
    if (!found)
      throw new BadRequestError(
        name ? `The importer '${name}' is not available` : `No importer reads this input (${input.type})`,
      );
    return found;
  }

  /** What an importer reads from the input, before anything is written. */
  async read(
    actor: Actor,
    input: ImportInput,
    opts: { importer?: string; signal?: AbortSignal } = {},
  ): Promise<ImportedRecipe[]> {
    this.larder.groups.scopeOf(actor);
    const importer = this.importerFor(input, opts.importer);
    const openai = await this.larder.aiProviders.openaiConfigFor(
      actor,
      input.type === "images" ? "image" : "default",
    );
    const recipes = await this.larder.plugins.use(importer, (p) =>
      p.import(input, this.pluginContext(opts.signal, openai)),
    );
    if (!Array.isArray(recipes) || recipes.length === 0)
      throw new BadRecipeDataError("The importer found no recipe");
    return recipes;
  }

  /** Read the input with the importer that accepts it and create its (first) recipe; returns the slug. */
  async importOne(
    actor: Actor,
    input: ImportInput,
    opts: ImportOptions & { importer?: string } = {},
  ): Promise<ImportResult> {
    const [first] = await this.read(actor, input, opts);
    return this.create(actor, first, { source: input.type, ...opts });
  }

  /**
   * POST /recipes/create/zip: the upload goes to `.larder/tmp` for the importer (which reads it through
   * the zip guards of safe-zip.ts) and is removed afterwards, whatever happened.
   */
  async importZip(actor: Actor, data: Buffer, opts: ImportOptions = {}): Promise<ImportResult> {
    this.larder.groups.scopeOf(actor);
    await mkdir(this.larder.folder.tmpDir, { recursive: true });
    const path = join(this.larder.folder.tmpDir, `import-${newId()}.zip`);
    await writeFile(path, data, { mode: 0o600 });
    try {
      return await this.importOne(
        actor,
        { type: "zip", path },
        { tags: true, categories: true, ...opts, source: "zip" },
      );
    } finally {
      await rm(path, { force: true });
    }
  }

  /**
   * POST /recipes/create/image: photos to one recipe through the `openai-vision` importer. The photos
   * are checked to be images, kept in `.larder/tmp` only while the importer reads them, and the first
   * becomes the recipe's image.
   */
  async importImages(
    actor: Actor,
    photos: ReadonlyArray<{ data: Buffer }>,
    opts: ImportOptions & { translateLanguage?: string | null } = {},
  ): Promise<ImportResult> {
    this.larder.groups.scopeOf(actor);
    if (!openAIImageServices({ openai: await this.larder.aiProviders.openaiConfigFor(actor, "image") }))
      throw new BadRequestError("OpenAI image services are not enabled");
    if (photos.length === 0) throw new BadRequestError("No image was given");
    const kinds = photos.map((p) => sniffImage(p.data));
    if (kinds.some((k) => !k))
      throw new BadRequestError("Every file must be an image (JPEG, PNG, WebP, GIF, AVIF, HEIC or TIFF)");
    await mkdir(this.larder.folder.tmpDir, { recursive: true });
    const paths: string[] = [];
    try {
      const images = [];
      for (const [i, p] of photos.entries()) {
        const path = join(this.larder.folder.tmpDir, `import-${newId()}.${kinds[i]}`);
        paths.push(path);
        await writeFile(path, p.data, { mode: 0o600 });
        images.push({ path, contentType: imageContentType(kinds[i]!) });
      }
      const input: ImportInput = {
        type: "images",
        images,
        ...(opts.translateLanguage ? { translateLanguage: opts.translateLanguage } : {}),
      };
      return await this.importOne(actor, input, {
        tags: true,
        categories: true,
        ...opts,
        importer: "openai-vision",
        source: "image",
      });
    } finally {
      for (const path of paths) await rm(path, { force: true });
    }
  }

  /**
   * POST /admin/debug/openai: one small request to the configured model (with the image when given),
   * answered as Mealie's DebugResponse: never an error status, the failure is in `response`.
   */
  async aiDebug(
    actor: Actor,
    image?: Buffer | null,
    providerId?: string,
  ): Promise<{ success: boolean; response: string | null }> {
    const { user } = this.larder.groups.scopeOf(actor);
    if (!user.admin) throw new ForbiddenError("Permission Denied");
    // The named provider of the admin's group, else the group's default, else OPENAI_*.
    const settings = openAISettings(
      await this.larder.aiProviders.openaiConfigFor(actor, "default", providerId),
    );
    if (!settings) return { success: false, response: "OpenAI is not enabled (set OPENAI_API_KEY)" };
    try {
      const client = new OpenAIClient(settings, aiFetcher(this.larder.config, settings));
      const kind = image ? sniffImage(image) : null;
      if (image && !kind) return { success: false, response: "The file is not an image" };
      const content: ChatMessage["content"] = image
        ? [
            { type: "text", text: "Describe this image in one sentence." },
            {
              type: "image_url",
              image_url: { url: `data:${imageContentType(kind!)};base64,${image.toString("base64")}` },
            },
          ]
        : "This is a test of the connection. Answer with a short greeting.";
      const response = await client.chat([{ role: "user", content }], {
        signal: AbortSignal.timeout(settings.timeoutMs),
      });
      return { success: true, response };
    } catch (e) {
      return { success: false, response: e instanceof Error ? e.message : String(e) };
    }
  }

  /** Pasted text as an import input: schema.org JSON or a page's HTML (BAD_RECIPE_DATA for broken JSON). */
  pasted(data: string, url?: string | null): ImportInput {
    return htmlOrJsonInput(data, url);
  }

  /** POST /recipes/test-scrape-url: what the page importer reads, nothing written. */
  async inspect(
    actor: Actor,
    input: ImportInput,
    opts: { importer?: string; signal?: AbortSignal } = {},
  ): Promise<unknown> {
    this.larder.groups.scopeOf(actor);
    const importer = this.importerFor(input, opts.importer);
    if (!importer.inspect)
      throw new BadRequestError(`The importer '${importer.name}' cannot show what it reads`);
    return this.larder.plugins.use(importer, (p) => p.inspect!(input, this.pluginContext(opts.signal)));
  }

  /**
   * POST /recipes/create/url/bulk: a group report ("Bulk Import", `bulk_import`) with an entry per URL,
   * filled in the background with at most `BULK_CONCURRENCY` fetches at once. Resolves with the report
   * id as soon as the report exists.
   */
  async startBulk(
    actor: Actor,
    items: ReadonlyArray<BulkItem>,
    opts: ImportOptions = {},
  ): Promise<{ reportId: string }> {
    this.larder.groups.scopeOf(actor);
    const report = await this.larder.reports.start(actor, { name: "Bulk Import", category: "bulk_import" });
    const run = (async () => {
      const queue = [...items];
      const worker = async () => {
        for (let item = queue.shift(); item; item = queue.shift()) {
          try {
            const r = await this.importOne(
              actor,
              { type: "url", url: item.url },
              {
                tags: opts.tags,
                categories: opts.categories,
                replaceTags: item.tags?.length ? item.tags : null,
                replaceCategories: item.categories?.length ? item.categories : null,
                source: "url/bulk",
              },
            );
            report.add({ success: true, message: `Successfully imported recipe ${r.name}` });
          } catch (e) {
            report.add({
              success: false,
              message: `failed to scrape url ${item.url}`,
              exception: e instanceof Error ? e.message : String(e),
            });
          }
        }
      };
      await Promise.all(
        Array.from({ length: Math.min(BULK_CONCURRENCY, Math.max(1, items.length)) }, worker),
      );
      await report.finish();
    })().catch((e: unknown) => this.larder.log.error("bulk import failed", e));
    this.background.add(run);
    void run.finally(() => this.background.delete(run));
    return { reportId: report.id };
  }

  /** Resolves when every background import started so far has finished (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.background.size > 0) await Promise.all([...this.background]);
  }

  /** `Name`, `Name (1)`… as a normal create; past those, a short random suffix (bulk imports of one title). */
  private freeNameOrSuffix(group: GroupData, name: string): { name: string; slug: string } {
    try {
      return this.larder.recipes.freeName(group, name);
    } catch {
      return this.larder.recipes.freeName(group, `${name} (${newId().slice(0, 6)})`);
    }
  }

  /**
   * A scraped line is stored as written and means what the same line typed into the recipe file means
   * (decision 0153): the file format's own reader, with the group's foods and units, gives its quantity
   * (and range), unit, food and note; a line it reads as a note stays a note. A statistical parser's
   * reading is not taken here: where it disagrees with the line's own reading it is a guess ("1-2
   * tablespoons milk" became "1 tbsp"; "Juice from 1/2 lime" a note "Juice from"), and where it agrees it
   * adds nothing. Parsing with a parser stays a person's explicit step (the editor, `/api/parser`).
   */
  private readIngredients(group: GroupData, ings: Record<string, unknown>[]): Record<string, unknown>[] {
    const vocabulary = this.larder.recipes.lookupsFor(group.slug).vocabulary;
    const foods = group.foods.data.foods;
    const units = group.units.data.units;
    return ings.map((ing) => {
      const plain =
        !ing.food &&
        !ing.unit &&
        ing.quantity == null &&
        typeof ing.note === "string" &&
        ing.note.trim() !== "";
      if (!plain) return ing;
      const line = String(ing.note).trim();
      const read = parseIngredientLine(line, vocabulary);
      if (read.referencedRecipe !== null) return ing;
      const food = read.food === null ? null : knownRef({ name: read.food }, foods);
      const unit = read.unit === null ? null : knownRef({ name: read.unit }, units);
      if ((read.food !== null && !food) || (read.unit !== null && !unit)) return ing;
      // An amount alone ("3 zorbles of unobtainium") is no reading worth splitting the line for.
      if (!food && !unit) return ing;
      // The line itself rides as originalText: it keeps a range ("1-2"), which the wire cannot carry.
      return { ...ing, quantity: read.quantity, unit, food, note: read.note, originalText: line };
    });
  }

  private async imageBytes(image: ImportedRecipe["image"], opts: ImportOptions): Promise<Buffer | null> {
    if (!image) return null;
    if ("bytes" in image) return Buffer.from(image.bytes);
    if (!image.url || image.url === "no image") return null;
    try {
      const res = await this.fetcher(image.url, {
        contentType: "image/*",
        maxBytes: this.larder.config.maxUploadBytes,
        timeoutMs: IMAGE_TIMEOUT_MS,
        userAgent: BROWSER_USER_AGENT,
        signal: opts.signal,
      });
      return res.body;
    } catch (e) {
      const why =
        e instanceof BadContentTypeError ? "not an image" : e instanceof Error ? e.message : String(e);
      this.larder.log.warn(`import: image ${image.url} not fetched (${why})`);
      return null;
    }
  }
}

/** Strings become Mealie's objects, tags follow the options, ids and server-owned fields are dropped. */
function normaliseImported(recipe: Record<string, unknown>, opts: ImportOptions): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const skip = new Set([
    "id",
    "slug",
    "userId",
    "groupId",
    "householdId",
    "image",
    "rating",
    "comments",
    "createdAt",
    "updatedAt",
    "dateUpdated",
    "lastMade",
    "assets",
    "dateAdded",
  ]);
  for (const [k, v] of Object.entries(recipe)) if (!skip.has(k) && v !== undefined) out[k] = v;
  const organizers = (v: unknown) =>
    (Array.isArray(v) ? v : typeof v === "string" ? v.split(",") : [])
      .map((o) =>
        typeof o === "string"
          ? o
          : typeof (o as { name?: unknown })?.name === "string"
            ? (o as { name: string }).name
            : "",
      )
      .map((n) => n.trim())
      .filter((n, i, all) => n && slugify(n) && all.findIndex((m) => slugify(m) === slugify(n)) === i)
      .map((name) => ({ name }));
  out.tags = opts.replaceTags
    ? organizers(opts.replaceTags)
    : opts.tags === false
      ? []
      : organizers(out.tags);
  out.recipeCategory = opts.replaceCategories
    ? organizers(opts.replaceCategories)
    : opts.categories === false
      ? []
      : organizers(out.recipeCategory);
  out.tools = organizers(out.tools);
  const ings = Array.isArray(out.recipeIngredient) ? out.recipeIngredient : [];
  out.recipeIngredient = ings
    .map((i) =>
      typeof i === "string" ? { note: i } : i && typeof i === "object" ? { ...(i as object) } : null,
    )
    .filter((i): i is Record<string, unknown> => i !== null)
    .map(({ referenceId: _r, display: _d, ...rest }) => rest);
  const steps = Array.isArray(out.recipeInstructions) ? out.recipeInstructions : [];
  out.recipeInstructions = steps
    .map((s) =>
      typeof s === "string" ? { text: s } : s && typeof s === "object" ? { ...(s as object) } : null,
    )
    .filter((s): s is Record<string, unknown> => s !== null)
    .map(({ id: _id, ...rest }) => rest);
  if (out.nutrition && typeof out.nutrition === "object") {
    out.nutrition = Object.fromEntries(
      Object.entries(out.nutrition as Record<string, unknown>).filter(
        ([, v]) => typeof v === "string" || typeof v === "number",
      ),
    );
  } else delete out.nutrition;
  for (const k of TEXT_FIELDS) {
    const v = out[k];
    if (v === null || v === undefined) continue;
    if (typeof v === "number") out[k] = String(v);
    else if (typeof v !== "string") delete out[k];
  }
  for (const k of COUNT_FIELDS) {
    const v = out[k];
    if (v !== null && v !== undefined && (typeof v !== "number" || !Number.isFinite(v))) delete out[k];
  }
  return out;
}

/** Mealie: a missing or empty name becomes "No Recipe Name Found - <id>". */
function importedName(raw: unknown): string {
  const name = typeof raw === "string" ? raw.replace(/\s+/g, " ").trim().slice(0, 500) : "";
  if (name && fileSlug(name)) return name;
  return `No Recipe Name Found - ${newId().slice(0, 8)}`;
}

function householdSettings(larder: Deps, group: GroupData, user: UserRecord): Record<string, boolean> {
  const prefs = larder.groups.household(group.doc.data.id, user.householdId)?.doc.data.preferences;
  if (!prefs) return {};
  const s: Record<string, boolean | undefined> = {
    public: prefs.recipePublic,
    showNutrition: prefs.recipeShowNutrition,
    showAssets: prefs.recipeShowAssets,
    landscapeView: prefs.recipeLandscapeView,
    disableComments: prefs.recipeDisableComments,
  };
  const out: Record<string, boolean> = {};
  for (const [k, v] of Object.entries(s)) {
    if (v !== undefined && v !== RECIPE_SETTINGS_DEFAULTS[k as keyof typeof RECIPE_SETTINGS_DEFAULTS])
      out[k] = v;
  }
  return out;
}

/** A parser's food or unit as `{id, name}` when the group knows it (by id, else by name); null otherwise. */
function knownRef(
  ref: unknown,
  list: ReadonlyArray<{ id: string; name: string }>,
): { id: string; name: string } | null {
  if (!ref || typeof ref !== "object") return null;
  const r = ref as { id?: unknown; name?: unknown };
  const byId = typeof r.id === "string" ? list.find((x) => x.id === r.id) : undefined;
  const byName =
    typeof r.name === "string"
      ? list.find((x) => x.name.toLowerCase() === (r.name as string).trim().toLowerCase())
      : undefined;
  const hit = byId ?? byName;
  return hit ? { id: hit.id, name: hit.name } : null;
}
