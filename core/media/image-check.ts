/**
 * Is this upload an image we are willing to keep? Decided before anything is stored: the magic bytes
 * name a raster format (SVG and anything else are refused before sharp sees them: librsvg would parse
 * markup, and a served SVG is script), sharp's header read gives the dimensions, and a pixel budget
 * refuses decompression bombs before a single pixel is decoded. A full decode of a thumbnail then
 * proves the data is really decodable, so a truncated file fails here and not on every later request.
 */
import type { Metadata } from "sharp";
import { loadSharp } from "../lazy/modules.js";
import { BadRequestError, PayloadTooLargeError } from "../errors.js";

/** No image we serve needs more pixels than this (sharp's own default is 268 M). */
export const LIMIT_INPUT_PIXELS = 100_000_000;
/** Animated GIF/WebP: frames are decoded too, so they count against the budget. */
const MAX_PAGES = 500;

export type ImageExt = "jpg" | "png" | "webp" | "gif" | "avif" | "heic" | "tiff";

export interface CheckedImage {
  /** File extension for `original.<ext>`, from the content, never from the client. */
  ext: ImageExt;
  width: number;
  height: number;
}

/** Which raster format the first bytes announce, or null. */
export function sniffImage(data: Uint8Array): ImageExt | null {
  const b = Buffer.from(data.buffer, data.byteOffset, Math.min(data.byteLength, 64));
  if (b.length < 12) return null;
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "jpg";
  if (b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return "png";
  if (b.toString("latin1", 0, 4) === "GIF8") return "gif";
  if (b.toString("latin1", 0, 4) === "RIFF" && b.toString("latin1", 8, 12) === "WEBP") return "webp";
  if (
    (b[0] === 0x49 && b[1] === 0x49 && b[2] === 0x2a && b[3] === 0) ||
    (b[0] === 0x4d && b[1] === 0x4d && b[2] === 0 && b[3] === 0x2a)
  )
    return "tiff";
  if (b.toString("latin1", 4, 8) === "ftyp") {
    const brand = b.toString("latin1", 8, 12);
    if (brand === "avif" || brand === "avis") return "avif";
    if (["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"].includes(brand)) return "heic";
  }
  return null;
}

/** The content type an original of this extension is served with. */
export function imageContentType(ext: string): string {
  const e = ext.toLowerCase();
  if (e === "jpg" || e === "jpeg") return "image/jpeg";
  if (e === "tif") return "image/tiff";
  return `image/${e}`;
}

/**
 * Validate an upload: 413 over `maxBytes`, 400 for anything that is not a decodable raster image
 * within the pixel budget. Runs in sharp's thread pool, so the event loop stays free.
 */
export async function checkImage(data: Buffer, maxBytes: number): Promise<CheckedImage> {
  if (data.length > maxBytes) throw new PayloadTooLargeError("Image is too large");
  const ext = sniffImage(data);
  if (!ext)
    throw new BadRequestError("File is not a supported image (JPEG, PNG, WebP, GIF, AVIF, HEIC or TIFF)");
  const sharp = await loadSharp();
  let meta: Metadata;
  try {
    meta = await sharp(data, { limitInputPixels: false }).metadata();
  } catch {
    throw new BadRequestError("File is not a readable image");
  }
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  const pages = Math.max(1, meta.pages ?? 1);
  if (!width || !height) throw new BadRequestError("File is not a readable image");
  if (
    width * height > LIMIT_INPUT_PIXELS ||
    width * height * Math.min(pages, MAX_PAGES) > LIMIT_INPUT_PIXELS * 4 ||
    pages > MAX_PAGES
  ) {
    throw new BadRequestError(
      `Image dimensions ${width}x${height} are too large (at most ${LIMIT_INPUT_PIXELS} pixels)`,
    );
  }
  try {
    // A real decode, bounded by the same budget: truncated or corrupt data fails here.
    await sharp(data, { limitInputPixels: LIMIT_INPUT_PIXELS, failOn: "error" })
      .resize(64, 64, { fit: "inside" })
      .raw()
      .toBuffer();
  } catch {
    throw new BadRequestError("File is not a readable image");
  }
  return { ext, width, height };
}
