/**
 * Recipe images. The original lives in the recipe's media folder (`recipes/<slug>/original.<ext>`, git
 * friendly); the sizes served to clients are derived once with sharp and cached under `.larder/cache`,
 * keyed by recipe id and image key, so they never enter the tracked folder.
 */
import { mkdir, readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import sharp from "sharp";
import type { Larder } from "../larder.js";
import { NotFoundError } from "../errors.js";
import { writeFileAtomic } from "../storage/atomic-write.js";

export const IMAGE_NAMES = ["original.webp", "min-original.webp", "tiny-original.webp"] as const;
export type ImageName = (typeof IMAGE_NAMES)[number];
const ORIGINAL_RE = /^original\.(webp|jpe?g|png|gif|avif|heic|heif|tiff?)$/i;
// Refuse decompression bombs: no image we serve needs more than this many pixels.
const LIMIT_INPUT_PIXELS = 100_000_000;

export class ImagesService {
  private inflight = new Map<string, Promise<Buffer>>();

  constructor(private larder: Larder) {}

  /** The original image file of a recipe's media folder, or null. */
  async originalPath(groupSlug: string, slug: string): Promise<string | null> {
    const dir = this.larder.folder.recipeMediaDir(groupSlug, slug);
    let names: string[];
    try {
      names = await readdir(dir);
    } catch {
      return null;
    }
    const name = names.filter((n) => ORIGINAL_RE.test(n)).sort()[0];
    return name ? join(dir, name) : null;
  }

  /** Bytes of one served size; derived on first request and cached. */
  async get(recipeId: string, name: string): Promise<{ data: Buffer; etag: string }> {
    if (!(IMAGE_NAMES as readonly string[]).includes(name)) throw new NotFoundError("File not found");
    const entry = this.larder.recipes.entryById(recipeId);
    if (!entry) throw new NotFoundError("File not found");
    const src = await this.originalPath(entry.groupSlug, entry.slug);
    if (!src) throw new NotFoundError("File not found");
    const st = await stat(src);
    const key = `${entry.doc.image ?? "0"}-${st.size}-${Math.floor(st.mtimeMs)}`;
    const cacheDir = join(this.larder.folder.cacheDir, "images", recipeId, key);
    const cached = join(cacheDir, name);
    const etag = `"${recipeId.slice(0, 8)}-${key}-${name}"`;
    try {
      return { data: await readFile(cached), etag };
    } catch {
      // not derived yet
    }
    let p = this.inflight.get(cached);
    if (!p) {
      p = this.derive(src, name as ImageName, cacheDir, cached).finally(() => this.inflight.delete(cached));
      this.inflight.set(cached, p);
    }
    return { data: await p, etag };
  }

  private async derive(src: string, name: ImageName, cacheDir: string, target: string): Promise<Buffer> {
    const input = sharp(src, { limitInputPixels: LIMIT_INPUT_PIXELS, failOn: "error" }).rotate();
    let out: Buffer;
    if (name === "original.webp") out = await input.webp({ quality: 80 }).toBuffer();
    else if (name === "min-original.webp") out = await input.resize({ width: 640, withoutEnlargement: true }).webp({ quality: 72 }).toBuffer();
    else out = await input.resize(300, 300, { fit: "cover", position: "centre" }).webp({ quality: 70 }).toBuffer();
    await mkdir(cacheDir, { recursive: true });
    await writeFileAtomic(target, out, { tmpDir: this.larder.folder.tmpDir });
    return out;
  }
}
