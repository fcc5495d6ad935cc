/**
 * Writes the installable app's icons (public/icons/*.png, decision 0085) from the brand mark in
 * public/favicon.svg: plain icons on the page colour and a maskable one whose mark sits inside the
 * 80 % safe zone. Run after changing the mark: `npx tsx scripts/pwa-icons.ts` (the PNGs are committed).
 */
import { readFile, mkdir } from "node:fs/promises";
import sharp from "sharp";

const BACKGROUND = "#faf8f5";

async function icon(svg: Buffer, size: number, markShare: number, out: string): Promise<void> {
  const mark = Math.round(size * markShare);
  const png = await sharp(svg, { density: Math.ceil((72 * mark) / 24) })
    .resize(mark, mark)
    .png()
    .toBuffer();
  await sharp({ create: { width: size, height: size, channels: 4, background: BACKGROUND } })
    .composite([{ input: png, gravity: "centre" }])
    .png({ compressionLevel: 9, palette: true })
    .toFile(out);
}

const svg = await readFile("public/favicon.svg");
await mkdir("public/icons", { recursive: true });
await icon(svg, 192, 0.78, "public/icons/icon-192.png");
await icon(svg, 512, 0.78, "public/icons/icon-512.png");
await icon(svg, 512, 0.6, "public/icons/maskable-512.png");
await icon(svg, 180, 0.74, "public/icons/apple-touch-icon.png");
