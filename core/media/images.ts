/**
 * Recipe images. The original lives in the recipe's media folder (`recipes/<slug>/original.<ext>`, git
 * friendly); the sizes served to clients are derived once with sharp and cached under `.larder/cache`,
 * keyed by recipe id and image key, so they never enter the tracked folder. Timeline event images
 * follow the same pattern one level down (`recipes/<slug>/timeline/<eventId>/original.<ext>`).
 */
import { randomBytes } from "node:crypto";
import { readdir, readFile, rm, unlink } from "node:fs/promises";
import { join } from "node:path";
import { loadSharp } from "../lazy/modules.js";
import type { Parts } from "../parts.js";
import type { Actor } from "../actor.js";
import { BadRequestError, NotFoundError } from "../errors.js";
import { writeFileAtomic } from "../storage/atomic-write.js";
import { BadContentTypeError, createGuardedFetcher, type GuardedFetcher } from "../net/index.js";
import { isUuid } from "../util/ids.js";
import { checkImage, LIMIT_INPUT_PIXELS } from "./image-check.js";
import { assertMayEditRecipe, findHouseholdRecipe, touchedDoc } from "./recipe-scope.js";
import {
  cacheSegment,
  headerSafe,
  lstatOrNull,
  pathInside,
  readFileInside,
  realDirInside,
} from "./safe-path.js";

/** The parts of the Larder this module uses. */
type Deps = Pick<Parts, "config" | "folder" | "groups" | "log" | "recipes">;

export const IMAGE_NAMES = ["original.webp", "min-original.webp", "tiny-original.webp"] as const;
export type ImageName = (typeof IMAGE_NAMES)[number];
const ORIGINAL_RE = /^original\.(webp|jpe?g|png|gif|avif|heic|heif|tiff?)$/i;
const URL_FETCH_TIMEOUT_MS = 30_000;

export class ImagesService {
  private inflight = new Map<string, Promise<Buffer>>();
  /** One image write per recipe (or timeline event) at a time: two uploads must not delete each other's original. */
  private writing = new Map<string, Promise<unknown>>();
  private fetcher: GuardedFetcher;

  constructor(private larder: Deps) {
    this.fetcher = createGuardedFetcher(larder.config);
  }

  /** Largest image accepted, uploaded or downloaded. */
  get maxBytes(): number {
    return this.larder.config.maxUploadBytes;
  }

  /**
   * The original image of a media folder (a regular file, never a symlink, in a real folder), or null.
   * With more than one (a replacement in another format is written before the old file is removed,
   * and a kill between leaves both; or one placed by hand beside it), the newest is the photo.
   */
  private async originalIn(dir: string): Promise<{ name: string; size: number; mtimeMs: number } | null> {
    const root = this.larder.folder.root;
    try {
      await realDirInside(root, dir, false);
    } catch (e) {
      if (e instanceof NotFoundError) return null;
      throw e;
    }
    const names = (await readdir(dir)).filter((n) => ORIGINAL_RE.test(n)).sort();
    let found: { name: string; size: number; mtimeMs: number } | null = null;
    for (const name of names) {
      const st = await lstatOrNull(join(dir, name));
      if (st?.isFile() && (!found || st.mtimeMs > found.mtimeMs))
        found = { name, size: st.size, mtimeMs: st.mtimeMs };
    }
    return found;
  }

  /** The original image file of a recipe's media folder, or null. */
  async originalPath(groupSlug: string, slug: string): Promise<string | null> {
    const dir = this.larder.folder.recipeMediaDir(groupSlug, slug);
    const found = await this.originalIn(dir);
    return found ? join(dir, found.name) : null;
  }

  /** Bytes of one served size; derived on first request and cached. */
  async get(recipeId: string, name: string): Promise<{ data: Buffer; etag: string }> {
    const entry = this.entryOr404(recipeId, name);
    const dir = this.larder.folder.recipeMediaDir(entry.groupSlug, entry.slug);
    // The image key is read from the file's front matter: a hand edit may hold anything there.
    return this.serve(
      dir,
      pathInside(this.larder.folder.imagesCacheDir, [recipeId.toLowerCase()]),
      cacheSegment(entry.doc.image ?? "0"),
      recipeId,
      name as ImageName,
    );
  }

  /** A timeline event's image, in the same three sizes. */
  async getTimeline(
    recipeId: string,
    eventId: string,
    name: string,
  ): Promise<{ data: Buffer; etag: string }> {
    const entry = this.entryOr404(recipeId, name);
    if (!isUuid(eventId)) throw new NotFoundError("File not found");
    const dir = this.timelineDir(entry.groupSlug, entry.slug, eventId);
    const cache = pathInside(this.larder.folder.imagesCacheDir, [
      recipeId.toLowerCase(),
      "timeline",
      eventId.toLowerCase(),
    ]);
    return this.serve(dir, cache, "t", `${recipeId}-${eventId}`, name as ImageName);
  }

  private entryOr404(recipeId: string, name: string) {
    if (!(IMAGE_NAMES as readonly string[]).includes(name)) throw new NotFoundError("File not found");
    const entry = isUuid(recipeId) ? this.larder.recipes.entryById(recipeId) : null;
    if (!entry) throw new NotFoundError("File not found");
    return entry;
  }

  private async serve(
    dir: string,
    cacheRoot: string,
    imageKey: string,
    tag: string,
    name: ImageName,
  ): Promise<{ data: Buffer; etag: string }> {
    const original = await this.originalIn(dir);
    if (!original) throw new NotFoundError("File not found");
    const key = `${cacheSegment(imageKey)}-${original.size}-${Math.floor(original.mtimeMs)}`;
    const cacheDir = pathInside(cacheRoot, [key]);
    const cached = pathInside(cacheDir, [name]);
    const etag = `"${headerSafe(`${tag.slice(0, 8)}-${key}-${name}`)}"`;
    try {
      return { data: await readFile(cached), etag };
    } catch {
      // not derived yet
    }
    let p = this.inflight.get(cached);
    if (!p) {
      const root = this.larder.folder.root;
      // Read through the safe opener: a symlink swapped in since the listing is still refused.
      p = readFileInside(root, dir, original.name)
        .then((src) => this.derive(src.data, name, cacheDir, cached))
        .catch((e: unknown) => {
          if (e instanceof NotFoundError) throw e;
          // An original that no longer decodes (a hand-placed or damaged file) is as good as none.
          this.larder.log.warn(`image ${dir}/${original.name} could not be rendered:`, e);
          throw new NotFoundError("File not found");
        })
        .finally(() => this.inflight.delete(cached));
      this.inflight.set(cached, p);
    }
    return { data: await p, etag };
  }

  private async derive(src: Buffer, name: ImageName, cacheDir: string, target: string): Promise<Buffer> {
    const sharp = await loadSharp();
    const input = sharp(src, { limitInputPixels: LIMIT_INPUT_PIXELS, failOn: "error" }).rotate();
    let out: Buffer;
    if (name === "original.webp") out = await input.webp({ quality: 80 }).toBuffer();
    else if (name === "min-original.webp")
      out = await input.resize({ width: 640, withoutEnlargement: true }).webp({ quality: 72 }).toBuffer();
    else
      out = await input
        .resize(300, 300, { fit: "cover", position: "centre" })
        .webp({ quality: 70 })
        .toBuffer();
    await realDirInside(this.larder.folder.root, cacheDir, true);
    await writeFileAtomic(target, out, { tmpDir: this.larder.folder.tmpDir });
    return out;
  }

  // ── Writes ─────────────────────────────────────────────────────────────────────────────────

  /** PUT /recipes/{slug}/image: validate, store the original once, give the recipe a new image key. */
  async setRecipeImage(actor: Actor, slugOrId: string, data: Buffer): Promise<string> {
    const { entry, user } = findHouseholdRecipe(this.larder, actor, slugOrId);
    assertMayEditRecipe(this.larder, user, entry);
    const checked = await checkImage(data, this.maxBytes);
    return this.serial(entry.id, async () => {
      const current = this.currentEntry(entry.id);
      await this.writeOriginal(
        this.larder.folder.recipeMediaDir(current.groupSlug, current.slug),
        data,
        checked.ext,
      );
      return this.setKey(entry.id, newImageKey(current.doc.image));
    });
  }

  /** POST /recipes/{slug}/image: download through the guarded fetcher, then as an upload. */
  async setRecipeImageFromUrl(actor: Actor, slugOrId: string, url: string): Promise<string> {
    const { entry, user } = findHouseholdRecipe(this.larder, actor, slugOrId);
    assertMayEditRecipe(this.larder, user, entry);
    let body: Buffer;
    try {
      ({ body } = await this.fetcher(url, {
        contentType: "image/*",
        maxBytes: this.maxBytes,
        timeoutMs: URL_FETCH_TIMEOUT_MS,
      }));
    } catch (e) {
      // Mealie's wording for a non-image answer.
      if (e instanceof BadContentTypeError) throw new BadRequestError("Url is not an image");
      throw e;
    }
    return this.setRecipeImage(actor, entry.id, body);
  }

  /**
   * The original of a recipe that is about to be created (imports): stored exactly like an upload,
   * before the recipe file exists, so an import writes its file last. Returns the new image key.
   */
  async storeNewRecipeOriginal(groupSlug: string, slug: string, data: Buffer): Promise<string> {
    const checked = await checkImage(data, this.maxBytes);
    await this.writeOriginal(this.larder.folder.recipeMediaDir(groupSlug, slug), data, checked.ext);
    return newImageKey();
  }

  /** DELETE /recipes/{slug}/image: the original goes, the recipe's image key becomes null. */
  async removeRecipeImage(actor: Actor, slugOrId: string): Promise<void> {
    const { entry, user } = findHouseholdRecipe(this.larder, actor, slugOrId);
    assertMayEditRecipe(this.larder, user, entry);
    await this.serial(entry.id, async () => {
      const current = this.currentEntry(entry.id);
      await this.removeOriginals(this.larder.folder.recipeMediaDir(current.groupSlug, current.slug), null);
      await this.setKey(entry.id, null);
    });
  }

  /**
   * Store a timeline event's image (`recipes/<slug>/timeline/<eventId>/original.<ext>`). The caller has
   * already authorised the write. `_extension` is the client's hint; the content decides the format.
   */
  async saveTimelineImage(
    recipeId: string,
    eventId: string,
    data: Buffer,
    _extension?: string,
  ): Promise<void> {
    if (!isUuid(eventId)) throw new BadRequestError("Invalid timeline event id");
    const entry = isUuid(recipeId) ? this.larder.recipes.entryById(recipeId) : null;
    if (!entry) throw new NotFoundError("recipe not found");
    const checked = await checkImage(data, this.maxBytes);
    await this.serial(`${recipeId}/${eventId}`, async () => {
      const current = this.currentEntry(recipeId);
      await this.writeOriginal(this.timelineDir(current.groupSlug, current.slug, eventId), data, checked.ext);
      await rm(join(this.larder.folder.imagesCacheDir, recipeId, "timeline", eventId.toLowerCase()), {
        recursive: true,
        force: true,
      });
    });
  }

  /** Remove a timeline event's image folder (when the event is deleted). */
  async removeTimelineImage(recipeId: string, eventId: string): Promise<void> {
    if (!isUuid(eventId)) return;
    const entry = isUuid(recipeId) ? this.larder.recipes.entryById(recipeId) : null;
    if (!entry) return;
    const dir = this.timelineDir(entry.groupSlug, entry.slug, eventId);
    await this.serial(`${recipeId}/${eventId}`, async () => {
      await this.removeOriginals(dir, null);
      await rm(join(this.larder.folder.imagesCacheDir, recipeId, "timeline", eventId.toLowerCase()), {
        recursive: true,
        force: true,
      });
    });
  }

  private timelineDir(groupSlug: string, slug: string, eventId: string): string {
    return join(this.larder.folder.recipeMediaDir(groupSlug, slug), "timeline", eventId.toLowerCase());
  }

  private currentEntry(id: string) {
    const e = this.larder.recipes.entryById(id);
    if (!e) throw new NotFoundError("No Entry Found");
    return e;
  }

  private async writeOriginal(dir: string, data: Buffer, ext: string): Promise<void> {
    const real = await realDirInside(this.larder.folder.root, dir, true);
    const name = `original.${ext}`;
    await writeFileAtomic(join(real, name), data, { tmpDir: this.larder.folder.tmpDir });
    await this.removeOriginals(real, name);
  }

  /** Delete every `original.*` but `keep` (links included: unlink removes the link, never its target). */
  private async removeOriginals(dir: string, keep: string | null): Promise<void> {
    let names: string[];
    try {
      await realDirInside(this.larder.folder.root, dir, false);
      names = await readdir(dir);
    } catch (e) {
      if (e instanceof NotFoundError) return;
      throw e;
    }
    for (const n of names)
      if (ORIGINAL_RE.test(n) && n !== keep) await unlink(join(dir, n)).catch(() => undefined);
  }

  /** Save the recipe's new image key and drop its derived sizes (timeline images keep theirs). */
  private async setKey(recipeId: string, key: string | null): Promise<string> {
    await this.larder.recipes.changeById(recipeId, (entry) => ({ ...touchedDoc(entry), image: key }));
    const cache = join(this.larder.folder.imagesCacheDir, recipeId);
    const old = await readdir(cache).catch(() => [] as string[]);
    for (const n of old) if (n !== "timeline") await rm(join(cache, n), { recursive: true, force: true });
    return key ?? "";
  }

  private serial<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.writing.get(key) ?? Promise.resolve();
    const run = prev.then(fn, fn);
    const tail = run.catch(() => undefined);
    this.writing.set(key, tail);
    void tail.then(() => {
      if (this.writing.get(key) === tail) this.writing.delete(key);
    });
    return run;
  }
}

/** A short random cache key, different from the previous one (clients cache image URLs by it). */
export function newImageKey(previous: string | null = null): string {
  const letters = "abcdefghijklmnopqrstuvwxyz";
  const alphabet = `${letters}0123456789`;
  for (;;) {
    const bytes = randomBytes(8);
    // A leading letter: the key sits in YAML front matter, where digits alone would read as a number.
    let key = letters[bytes[0] % letters.length];
    for (let i = 1; i < 8; i++) key += alphabet[bytes[i] % alphabet.length];
    if (key !== previous) return key;
  }
}
