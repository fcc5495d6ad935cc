/**
 * Profile images at `<data>/users/<user id>/profile.webp`, Mealie's layout (mealie-api-notes §5.7).
 * They sit in the tracked part of the folder, next to `users.json`: a picture is part of a person's
 * public profile, a folder cloned with git should show the same faces, and it is not a secret or a
 * cache (derived recipe image sizes are, and live in `.larder/`).
 *
 * Uploads are decoded and re-encoded with sharp (so only a real image is ever stored and served),
 * turned upright, and bounded to 512×512.
 */
import { mkdir, readFile, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { sniffImage } from "../media/image-check.js";
import { loadSharp } from "../lazy/modules.js";
import type { DataFolder } from "../storage/data-folder.js";
import { writeFileAtomic } from "../storage/atomic-write.js";
import { noteChange } from "../storage/change-count.js";
import { BadRequestError, NotFoundError } from "../errors.js";

export const AVATAR_FILE = "profile.webp";
const AVATAR_SIZE = 512;
// A decompression bomb must not get far: no profile picture needs more pixels than this.
const LIMIT_INPUT_PIXELS = 40_000_000;
const SAFE_ID = /^[A-Za-z0-9-]{1,64}$/;

export class AvatarStore {
  constructor(private readonly folder: DataFolder) {}

  /** `<data>/users`, the folder of all profile images. */
  get dir(): string {
    return join(this.folder.root, "users");
  }

  private userDir(userId: string): string {
    // User ids come from users.json, which may be edited by hand: only a plain id names a folder.
    if (!SAFE_ID.test(userId)) throw new NotFoundError("File not found");
    return join(this.dir, userId);
  }

  /** Convert an upload to the stored webp; 400 when it is not an image sharp can read. */
  async save(userId: string, upload: Buffer): Promise<void> {
    // Raster formats only, as for recipe images: sharp would hand an SVG to librsvg (markup parsed on
    // the server), and nothing but a known image signature reaches it.
    if (sniffImage(upload) === null) throw new BadRequestError("The uploaded file is not an image");
    let webp: Buffer;
    const sharp = await loadSharp();
    try {
      webp = await sharp(upload, { limitInputPixels: LIMIT_INPUT_PIXELS, failOn: "error" })
        .rotate()
        .resize(AVATAR_SIZE, AVATAR_SIZE, { fit: "cover", position: "centre", withoutEnlargement: true })
        .webp({ quality: 80 })
        .toBuffer();
    } catch {
      throw new BadRequestError("The uploaded file is not an image");
    }
    const dir = this.userDir(userId);
    await mkdir(dir, { recursive: true });
    await writeFileAtomic(join(dir, AVATAR_FILE), webp, { tmpDir: this.folder.tmpDir });
    // Pages show whether a user has a picture.
    noteChange();
  }

  /**
   * The stored image and a validator for caching. A user with no picture of their own gets the default
   * one, as every Mealie user has a `profile.webp` from creation on; `exists` says whether the id is a
   * user at all (unknown ids stay 404).
   */
  async read(
    userId: string,
    fileName = AVATAR_FILE,
    exists: (id: string) => boolean = () => false,
  ): Promise<{ data: Buffer; etag: string }> {
    if (fileName !== AVATAR_FILE) throw new NotFoundError("File not found");
    const file = join(this.userDir(userId), AVATAR_FILE);
    try {
      const [data, st] = await Promise.all([readFile(file), stat(file)]);
      return { data, etag: `"${userId.slice(0, 8)}-${st.size}-${Math.floor(st.mtimeMs)}"` };
    } catch {
      if (!exists(userId)) throw new NotFoundError("File not found");
      return { data: await defaultAvatar(), etag: '"default-avatar-1"' };
    }
  }

  /** Remove a deleted user's folder. */
  async remove(userId: string): Promise<void> {
    if (!SAFE_ID.test(userId)) return;
    await rm(this.userDir(userId), { recursive: true, force: true });
    noteChange();
  }
}

let rendered: Promise<Buffer> | null = null;

/**
 * A neutral silhouette, drawn from shapes (sharp renders SVG text only with installed fonts) and made
 * once per process. It is served, not written: a file per user would add noise to the tracked folder.
 */
function defaultAvatar(): Promise<Buffer> {
  rendered ??= (async () => {
    const sharp = await loadSharp();
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${AVATAR_SIZE}" height="${AVATAR_SIZE}" viewBox="0 0 64 64">
      <rect width="64" height="64" fill="#dfe3e8"/>
      <circle cx="32" cy="25" r="11" fill="#9aa5b1"/>
      <path d="M12 58c0-12 9-19 20-19s20 7 20 19z" fill="#9aa5b1"/>
    </svg>`;
    return sharp(Buffer.from(svg)).webp({ quality: 80 }).toBuffer();
  })();
  rendered.catch(() => (rendered = null));
  return rendered;
}
