/**
 * Draws an illustration for every demo recipe and writes it to `recipes/<slug>/original.webp`.
 *
 *   npx tsx scripts/demo-images/make.ts [--dir <recipes folder>] [--only <slug>] [--png <out folder>]
 *
 * Each picture is an SVG made of shapes only (no text: sharp renders SVG text only with installed fonts):
 * a vessel chosen from the recipe's name and first category (plate, bowl, glass, mug, loaf, buns, pizza,
 * cake, pancake stack, dip, salad, tacos, jar, skillet), food colours from keywords in the slug, and a
 * background palette and garnish layout seeded from the slug. Deterministic: the same recipe always gives
 * the same bytes, and a file whose bytes would not change is not rewritten.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import { parse as parseYaml } from "yaml";

const W = 1200;
const H = 800;
const QUALITY = 78;

// ---------------------------------------------------------------------------------------------------------
// Seeded randomness and number formatting

type Rng = () => number;

function hashString(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

function mulberry32(seed: number): Rng {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const between = (r: Rng, lo: number, hi: number) => lo + r() * (hi - lo);
const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
/** Fixed precision so the SVG text (and therefore the image) never depends on float printing. */
const f = (n: number) => (Math.round(n * 10) / 10).toString();

// ---------------------------------------------------------------------------------------------------------
// Colour helpers (hex in, hex out; librsvg gets plain #rrggbb)

function hexToHsl(hex: string): [number, number, number] {
  const n = parseInt(hex.slice(1), 16);
  const r = ((n >> 16) & 255) / 255;
  const g = ((n >> 8) & 255) / 255;
  const b = (n & 255) / 255;
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  if (max === min) return [0, 0, l * 100];
  const d = max - min;
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
  let h: number;
  if (max === r) h = (g - b) / d + (g < b ? 6 : 0);
  else if (max === g) h = (b - r) / d + 2;
  else h = (r - g) / d + 4;
  return [h * 60, s * 100, l * 100];
}

function hsl(h: number, s: number, l: number): string {
  h = ((h % 360) + 360) % 360;
  s = Math.max(0, Math.min(100, s)) / 100;
  l = Math.max(0, Math.min(100, l)) / 100;
  const k = (n: number) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const c = (n: number) => l - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)));
  const to = (x: number) =>
    Math.round(x * 255)
      .toString(16)
      .padStart(2, "0");
  return `#${to(c(0))}${to(c(8))}${to(c(4))}`;
}

function shade(hex: string, dl: number, ds = 0): string {
  const [h, s, l] = hexToHsl(hex);
  return hsl(h, s + ds, l + dl);
}

// ---------------------------------------------------------------------------------------------------------
// SVG builder

class Svg {
  private defs: string[] = [];
  private body: string[] = [];
  private n = 0;

  id(prefix: string): string {
    return `${prefix}${++this.n}`;
  }
  def(s: string): void {
    this.defs.push(s);
  }
  add(s: string): void {
    this.body.push(s);
  }
  /** Vertical or diagonal linear gradient; returns `url(#id)`. */
  linear(stops: [number, string, number?][], x1 = 0, y1 = 0, x2 = 0, y2 = 1): string {
    const id = this.id("l");
    const st = stops.map(
      ([o, c, a]) =>
        `<stop offset="${o}" stop-color="${c}"${a === undefined ? "" : ` stop-opacity="${a}"`}/>`,
    );
    this.def(
      `<linearGradient id="${id}" x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}">${st.join("")}</linearGradient>`,
    );
    return `url(#${id})`;
  }
  radial(stops: [number, string, number?][], cx = 0.5, cy = 0.5, r = 0.5, fx = cx, fy = cy): string {
    const id = this.id("r");
    const st = stops.map(
      ([o, c, a]) =>
        `<stop offset="${o}" stop-color="${c}"${a === undefined ? "" : ` stop-opacity="${a}"`}/>`,
    );
    this.def(
      `<radialGradient id="${id}" cx="${cx}" cy="${cy}" r="${r}" fx="${fx}" fy="${fy}">${st.join("")}</radialGradient>`,
    );
    return `url(#${id})`;
  }
  blur(sd: number): string {
    const id = this.id("b");
    this.def(
      `<filter id="${id}" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="${sd}"/></filter>`,
    );
    return `url(#${id})`;
  }
  toString(): string {
    return (
      `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">` +
      `<defs>${this.defs.join("")}</defs>${this.body.join("")}</svg>`
    );
  }
}

// ---------------------------------------------------------------------------------------------------------
// Shape primitives

type Pt = [number, number];

function closedSpline(p: Pt[]): string {
  const n = p.length;
  let d = `M${f(p[0][0])},${f(p[0][1])}`;
  for (let i = 0; i < n; i++) {
    const p0 = p[(i - 1 + n) % n];
    const p1 = p[i];
    const p2 = p[(i + 1) % n];
    const p3 = p[(i + 2) % n];
    const c1: Pt = [p1[0] + (p2[0] - p0[0]) / 6, p1[1] + (p2[1] - p0[1]) / 6];
    const c2: Pt = [p2[0] - (p3[0] - p1[0]) / 6, p2[1] - (p3[1] - p1[1]) / 6];
    d += ` C${f(c1[0])},${f(c1[1])} ${f(c2[0])},${f(c2[1])} ${f(p2[0])},${f(p2[1])}`;
  }
  return d + "Z";
}

/** An irregular rounded blob around (cx, cy). */
function blobPath(r: Rng, cx: number, cy: number, rx: number, ry: number, n = 9, jitter = 0.14): string {
  const pts: Pt[] = [];
  const start = r() * Math.PI * 2;
  for (let i = 0; i < n; i++) {
    const a = start + (i / n) * Math.PI * 2 + between(r, -0.12, 0.12);
    const k = 1 + between(r, -jitter, jitter);
    pts.push([cx + Math.cos(a) * rx * k, cy + Math.sin(a) * ry * k]);
  }
  return closedSpline(pts);
}

function ellipse(cx: number, cy: number, rx: number, ry: number, fill: string, extra = ""): string {
  return `<ellipse cx="${f(cx)}" cy="${f(cy)}" rx="${f(rx)}" ry="${f(ry)}" fill="${fill}"${extra}/>`;
}

function shadow(svg: Svg, cx: number, cy: number, rx: number, ry: number, opacity = 0.2): void {
  svg.add(ellipse(cx, cy, rx, ry, "#2b1d12", ` opacity="${opacity}" filter="${svg.blur(18)}"`));
}

function leaf(x: number, y: number, len: number, angle: number, color: string, width = 0.38): string {
  const w = len * width;
  return (
    `<g transform="translate(${f(x)} ${f(y)}) rotate(${f(angle)})">` +
    `<path d="M0,0 Q${f(len * 0.45)},${f(-w)} ${f(len)},0 Q${f(len * 0.45)},${f(w)} 0,0Z" fill="${color}"/>` +
    `<path d="M${f(len * 0.08)},0 L${f(len * 0.85)},0" stroke="${shade(color, -12)}" stroke-width="${f(Math.max(1, len * 0.04))}" stroke-linecap="round" opacity="0.7"/>` +
    `</g>`
  );
}

/** A citrus or vegetable round: rind, flesh and a few segments. */
function wheel(x: number, y: number, rad: number, rind: string, flesh: string, squash = 1): string {
  let s = `<g transform="translate(${f(x)} ${f(y)}) scale(1 ${f(squash)})">`;
  s += `<circle r="${f(rad)}" fill="${rind}"/><circle r="${f(rad * 0.86)}" fill="${shade(flesh, 12)}"/>`;
  s += `<circle r="${f(rad * 0.78)}" fill="${flesh}"/>`;
  for (let i = 0; i < 8; i++) {
    const a = (i / 8) * Math.PI * 2;
    s += `<line x1="0" y1="0" x2="${f(Math.cos(a) * rad * 0.78)}" y2="${f(Math.sin(a) * rad * 0.78)}" stroke="${shade(flesh, 14)}" stroke-width="${f(rad * 0.06)}"/>`;
  }
  return s + `<circle r="${f(rad * 0.1)}" fill="${shade(flesh, 16)}"/></g>`;
}

/** A fried or poached egg seen from above and squashed for perspective. */
function egg(r: Rng, x: number, y: number, size: number, squash = 0.6): string {
  const white = `<path d="${blobPath(r, x, y, size, size * squash, 8, 0.16)}" fill="#fbf8f0"/>`;
  return (
    white +
    ellipse(x + size * 0.08, y - size * 0.06, size * 0.38, size * 0.38 * squash, "#f5b021") +
    ellipse(x - size * 0.02, y - size * 0.14, size * 0.12, size * 0.07, "#ffe28a", ` opacity="0.8"`)
  );
}

function scatterInEllipse(r: Rng, cx: number, cy: number, rx: number, ry: number): Pt {
  const a = r() * Math.PI * 2;
  const d = Math.sqrt(r());
  return [cx + Math.cos(a) * rx * d, cy + Math.sin(a) * ry * d];
}

// ---------------------------------------------------------------------------------------------------------
// Recipe look: colours from keywords, vessel from keywords then category

interface Look {
  main: string; // the dish's dominant colour
  accent: string; // second food colour (cheese, sauce, rice...)
  garnish: string; // leaves and herbs
  dots: string; // seeds, spices, crumbs
  extra?: string; // a third food colour where a scene uses one
}

const LOOKS: [RegExp, Look][] = [
  [/margherita|pizza-(?!dough)/, { main: "#d8432b", accent: "#f7edd2", garnish: "#3f8f3a", dots: "#f3f0e6" }],
  [/pizza-dough/, { main: "#f1e0c0", accent: "#faf4e6", garnish: "#8aa35a", dots: "#ffffff" }],
  [/risotto/, { main: "#ead9b0", accent: "#8a5b3a", garnish: "#6f8f3a", dots: "#f7f0dc" }],
  [/chana|masala/, { main: "#c8662b", accent: "#e7b04a", garnish: "#3f9a40", dots: "#7a3b16" }],
  [/chai/, { main: "#c69c6d", accent: "#f1e4cf", garnish: "#7a4a22", dots: "#5b3a1e" }],
  [/taco/, { main: "#e6c487", accent: "#2f2a30", garnish: "#4d9a3f", dots: "#d9679a", extra: "#9ccc65" }],
  [/salsa/, { main: "#c9381f", accent: "#f0d9a2", garnish: "#3f8f3a", dots: "#7d1f12" }],
  [/salmon/, { main: "#f08a5d", accent: "#f7f3ea", garnish: "#4f9a45", dots: "#f4ead2" }],
  [/miso-soup/, { main: "#d8b887", accent: "#f8f4ea", garnish: "#4f9a45", dots: "#2f4d2a" }],
  [/green-curry/, { main: "#b6c76a", accent: "#f4efe0", garnish: "#3f8a3a", dots: "#d8432b" }],
  [/mango/, { main: "#f6f0e2", accent: "#f6a623", garnish: "#5c9a48", dots: "#3b332c" }],
  [/tagine/, { main: "#b8672e", accent: "#f0a13b", garnish: "#3f9a40", dots: "#f2e2c4" }],
  [/onion-soup/, { main: "#9c5a26", accent: "#f0c46a", garnish: "#6f8f3a", dots: "#6e3a14" }],
  [/crepe/, { main: "#edc98a", accent: "#f6e27a", garnish: "#6f9a45", dots: "#ffffff" }],
  [/shakshuka/, { main: "#c73a22", accent: "#f7f3ea", garnish: "#3f8f3a", dots: "#f4f4ee" }],
  [/hummus/, { main: "#e3c48f", accent: "#c0392b", garnish: "#b89a1e", dots: "#b5341f" }],
  [/pancake/, { main: "#d9a25a", accent: "#8a4b16", garnish: "#3f5fb0", dots: "#f6e7a8" }],
  [/cornbread/, { main: "#e8b84a", accent: "#f6d97a", garnish: "#6f9a45", dots: "#c98a2a" }],
  [/cardamom-knot|bun/, { main: "#c98a3e", accent: "#e9b86a", garnish: "#7a4a22", dots: "#ffffff" }],
  [/beet/, { main: "#9c1f4f", accent: "#f3e9dc", garnish: "#4f8f3a", dots: "#a9713c", extra: "#d9e08a" }],
  [/mapo/, { main: "#b8301f", accent: "#f5ecd8", garnish: "#4f9a45", dots: "#5a1a10" }],
  [/bok-choy/, { main: "#5fa04e", accent: "#e6f2cf", garnish: "#3e7c34", dots: "#f0d9a0" }],
  [/misir|lentil/, { main: "#b4401f", accent: "#e59a3a", garnish: "#4f9a45", dots: "#6e2410" }],
  [
    /village|greek-salad/,
    { main: "#d8432b", accent: "#f7f5ee", garnish: "#7fb069", dots: "#3b2540", extra: "#5a8f3a" },
  ],
  [/tzatziki/, { main: "#f3f1e7", accent: "#7fb069", garnish: "#5a9a45", dots: "#c9b76a" }],
  [/kimchi/, { main: "#e0662f", accent: "#f5b021", garnish: "#4f9a45", dots: "#1f2a22" }],
  [/cucumber/, { main: "#86b66d", accent: "#eaf4dc", garnish: "#4f8f3a", dots: "#c9331f" }],
  [/chicken-with|roast-chicken/, { main: "#b86a2c", accent: "#8cc152", garnish: "#3f8f3a", dots: "#e8c07a" }],
  [/cooler|lemonade|lime/, { main: "#eef2b8", accent: "#8cc152", garnish: "#3f9a40", dots: "#ffffff" }],
  [/banana/, { main: "#a8682c", accent: "#f2d46b", garnish: "#6f4a22", dots: "#5a3a1c" }],
  [/chocolate/, { main: "#4a2a1d", accent: "#f7f2ea", garnish: "#b32b3a", dots: "#fdfbf6" }],
  [/carrot/, { main: "#e9772b", accent: "#efe3c8", garnish: "#4f9a45", dots: "#8fb34a" }],
  [/oat/, { main: "#e7d8bd", accent: "#4a5fb5", garnish: "#5c9a48", dots: "#6f8a3a" }],
];

const FALLBACK_FOODS = ["#c8662b", "#d8a14a", "#7fa650", "#b8402c", "#e0b25a", "#8a5b3a"];

type Scene =
  | "plate"
  | "bowl"
  | "glass"
  | "mug"
  | "loaf"
  | "buns"
  | "pizza"
  | "dough"
  | "cake"
  | "stack"
  | "crepes"
  | "dip"
  | "salad"
  | "tacos"
  | "jar"
  | "skillet";

const SCENE_BY_SLUG: [RegExp, Scene][] = [
  [/pizza-dough/, "dough"],
  [/pizza/, "pizza"],
  [/taco/, "tacos"],
  [/pancake/, "stack"],
  [/crepe/, "crepes"],
  [/oat/, "jar"],
  [/chai/, "mug"],
  [/shakshuka|cornbread/, "skillet"],
  [/banana-bread|loaf/, "loaf"],
  [/knot|bun/, "buns"],
  [/cake/, "cake"],
  [/sticky-rice/, "plate"],
  [/hummus|tzatziki|salsa|dip/, "dip"],
];

const SCENE_BY_CATEGORY: Record<string, Scene> = {
  Breakfast: "plate",
  Soups: "bowl",
  Salads: "salad",
  Mains: "plate",
  Sides: "plate",
  Breads: "loaf",
  Desserts: "cake",
  Drinks: "glass",
  Sauces: "dip",
  Basics: "bowl",
};

function lookFor(slug: string, r: Rng): Look {
  for (const [re, look] of LOOKS) if (re.test(slug)) return look;
  const main = pick(r, FALLBACK_FOODS);
  return { main, accent: shade(main, 25), garnish: "#4f9a45", dots: shade(main, -25) };
}

function sceneFor(slug: string, categories: string[], name: string): Scene {
  for (const [re, scene] of SCENE_BY_SLUG) if (re.test(slug)) return scene;
  if (/soup|stew|curry|risotto|wot|tagine|masala|dal\b/i.test(name)) return "bowl";
  for (const c of categories) if (SCENE_BY_CATEGORY[c]) return SCENE_BY_CATEGORY[c];
  return "plate";
}

// ---------------------------------------------------------------------------------------------------------
// Background

function background(svg: Svg, r: Rng, look: Look): void {
  // A soft pastel that sits opposite-ish to the food on the colour wheel, so the dish stands out.
  const [foodHue] = hexToHsl(look.main);
  const hue = foodHue + 150 + between(r, -50, 50);
  const sat = between(r, 30, 50);
  const top = hsl(hue, sat, between(r, 90, 94));
  const bottom = hsl(hue + between(r, -25, 25), sat + 5, between(r, 78, 84));
  const diag = r() < 0.5;
  svg.add(
    `<rect width="${W}" height="${H}" fill="${svg.linear(
      [
        [0, top],
        [1, bottom],
      ],
      diag ? 0 : 0.2,
      0,
      diag ? 0.4 : 0,
      1,
    )}"/>`,
  );
  // Spotlight behind the dish.
  svg.add(
    ellipse(
      600,
      430,
      560,
      380,
      svg.radial([
        [0, "#ffffff", 0.55],
        [1, "#ffffff", 0],
      ]),
    ),
  );
  // A few large, faint shapes for texture, tinted from the background and the food.
  const shapes = 3 + Math.floor(r() * 3);
  for (let i = 0; i < shapes; i++) {
    const x = pick(r, [between(r, -60, 260), between(r, 940, 1260)]);
    const y = between(r, -40, 840);
    const rad = between(r, 60, 170);
    const col = r() < 0.5 ? hsl(hue + between(r, -30, 30), sat + 10, 72) : shade(look.main, 25, -10);
    svg.add(
      `<circle cx="${f(x)}" cy="${f(y)}" r="${f(rad)}" fill="${col}" opacity="${(Math.round(between(r, 0.12, 0.22) * 100) / 100).toString()}"/>`,
    );
  }
  // Scattered ingredients on the "table": small leaves and seeds along the edges.
  const bits = 5 + Math.floor(r() * 5);
  for (let i = 0; i < bits; i++) {
    const left = r() < 0.5;
    const x = left ? between(r, 40, 230) : between(r, 970, 1160);
    const y = between(r, 470, 770);
    if (r() < 0.55)
      svg.add(`<g opacity="0.85">${leaf(x, y, between(r, 26, 46), between(r, 0, 360), look.garnish)}</g>`);
    else
      svg.add(
        ellipse(
          x,
          y,
          between(r, 5, 9),
          between(r, 3, 6),
          look.dots === "#ffffff" || look.dots === "#fdfbf6" ? shade(look.main, -5) : look.dots,
          ` opacity="0.8" transform="rotate(${f(between(r, 0, 180))} ${f(x)} ${f(y)})"`,
        ),
      );
  }
}

// ---------------------------------------------------------------------------------------------------------
// Vessels

function plate(svg: Svg, cx: number, cy: number, rx: number, ry: number, tint: string): void {
  shadow(svg, cx, cy + ry * 0.35, rx * 1.02, ry * 0.9);
  svg.add(ellipse(cx, cy + 8, rx, ry, shade(tint, -14)));
  svg.add(
    ellipse(
      cx,
      cy,
      rx,
      ry,
      svg.linear([
        [0, "#ffffff"],
        [1, tint],
      ]),
    ),
  );
  svg.add(
    ellipse(
      cx,
      cy + 4,
      rx * 0.74,
      ry * 0.72,
      svg.linear([
        [0, shade(tint, -6)],
        [1, "#ffffff"],
      ]),
    ),
  );
  svg.add(
    `<ellipse cx="${f(cx)}" cy="${f(cy)}" rx="${f(rx - 6)}" ry="${f(ry - 4)}" fill="none" stroke="#ffffff" stroke-width="3" opacity="0.7"/>`,
  );
}

/** A deep bowl: returns the rim ellipse so the caller can fill it. */
function bowl(
  svg: Svg,
  r: Rng,
  cx: number,
  cy: number,
  rx: number,
  depth: number,
): { cx: number; cy: number; rx: number; ry: number } {
  const ry = rx * 0.34;
  const hue = between(r, 0, 360);
  const glaze = r() < 0.35 ? "#f7f4ee" : hsl(hue, between(r, 25, 45), between(r, 55, 72));
  shadow(svg, cx, cy + depth + 6, rx * 0.85, ry * 0.6, 0.25);
  svg.add(ellipse(cx, cy + depth - 2, rx * 0.42, ry * 0.32, shade(glaze, -18)));
  const body = `M${f(cx - rx)},${f(cy)} C${f(cx - rx)},${f(cy + depth * 0.9)} ${f(cx - rx * 0.5)},${f(cy + depth)} ${f(cx)},${f(cy + depth)} C${f(cx + rx * 0.5)},${f(cy + depth)} ${f(cx + rx)},${f(cy + depth * 0.9)} ${f(cx + rx)},${f(cy)}Z`;
  svg.add(
    `<path d="${body}" fill="${svg.linear(
      [
        [0, shade(glaze, 8)],
        [0.6, glaze],
        [1, shade(glaze, -16)],
      ],
      0,
      0,
      1,
      0,
    )}"/>`,
  );
  // A painted band for character.
  if (r() < 0.6) {
    const by = cy + depth * 0.35;
    svg.add(
      `<path d="M${f(cx - rx * 0.97)},${f(by)} Q${f(cx)},${f(by + depth * 0.35)} ${f(cx + rx * 0.97)},${f(by)}" stroke="${shade(glaze, -22, 10)}" stroke-width="${f(depth * 0.06)}" fill="none" opacity="0.55"/>`,
    );
  }
  svg.add(ellipse(cx, cy, rx, ry, shade(glaze, 14)));
  svg.add(ellipse(cx, cy + 3, rx * 0.95, ry * 0.88, shade(glaze, -10)));
  return { cx, cy: cy + 5, rx: rx * 0.92, ry: ry * 0.82 };
}

function board(svg: Svg, r: Rng, cx: number, cy: number, w: number, h: number): void {
  const wood = hsl(between(r, 24, 34), between(r, 40, 55), between(r, 52, 62));
  shadow(svg, cx, cy + h * 0.3, w * 0.55, h * 0.5);
  svg.add(
    `<rect x="${f(cx - w / 2)}" y="${f(cy - h / 2 + 12)}" width="${f(w)}" height="${f(h)}" rx="${f(h * 0.22)}" fill="${shade(wood, -14)}"/>`,
  );
  svg.add(
    `<rect x="${f(cx - w / 2)}" y="${f(cy - h / 2)}" width="${f(w)}" height="${f(h)}" rx="${f(h * 0.22)}" fill="${svg.linear(
      [
        [0, shade(wood, 6)],
        [1, wood],
      ],
    )}"/>`,
  );
  for (let i = 0; i < 4; i++) {
    const y = cy - h / 2 + h * (0.2 + i * 0.2) + between(r, -6, 6);
    svg.add(
      `<path d="M${f(cx - w * 0.44)},${f(y)} Q${f(cx)},${f(y + between(r, -10, 10))} ${f(cx + w * 0.44)},${f(y)}" stroke="${shade(wood, -8)}" stroke-width="2" fill="none" opacity="0.5"/>`,
    );
  }
}

// ---------------------------------------------------------------------------------------------------------
// Garnishes

function garnish(
  svg: Svg,
  r: Rng,
  look: Look,
  cx: number,
  cy: number,
  rx: number,
  ry: number,
  leaves = 5,
  dots = 24,
): void {
  for (let i = 0; i < leaves; i++) {
    const [x, y] = scatterInEllipse(r, cx, cy, rx * 0.8, ry * 0.8);
    svg.add(leaf(x, y, between(r, 22, 40), between(r, 0, 360), shade(look.garnish, between(r, -6, 8))));
  }
  for (let i = 0; i < dots; i++) {
    const [x, y] = scatterInEllipse(r, cx, cy, rx * 0.9, ry * 0.9);
    svg.add(
      ellipse(
        x,
        y,
        between(r, 2.5, 5),
        between(r, 1.6, 3.2),
        look.dots,
        ` transform="rotate(${f(between(r, 0, 180))} ${f(x)} ${f(y)})"`,
      ),
    );
  }
}

/** A mound of food: two or three layered blobs with a highlight. */
function mound(svg: Svg, r: Rng, color: string, cx: number, cy: number, rx: number, ry: number): void {
  svg.add(`<path d="${blobPath(r, cx, cy + ry * 0.12, rx, ry, 10, 0.1)}" fill="${shade(color, -14)}"/>`);
  svg.add(
    `<path d="${blobPath(r, cx, cy, rx * 0.97, ry * 0.95, 10, 0.12)}" fill="${svg.radial(
      [
        [0, shade(color, 12)],
        [0.7, color],
        [1, shade(color, -8)],
      ],
      0.45,
      0.35,
      0.7,
    )}"/>`,
  );
  svg.add(
    `<path d="${blobPath(r, cx - rx * 0.2, cy - ry * 0.3, rx * 0.35, ry * 0.22, 7, 0.2)}" fill="#ffffff" opacity="0.16"/>`,
  );
}

// ---------------------------------------------------------------------------------------------------------
// Scenes

function scenePlate(svg: Svg, r: Rng, look: Look, slug: string): void {
  const tint = hsl(between(r, 0, 360), between(r, 10, 25), 88);
  plate(svg, 600, 470, 400, 175, tint);
  if (/chicken-with|roast-chicken/.test(slug)) {
    // Roast chicken with a small bowl of green sauce.
    mound(svg, r, look.main, 560, 440, 190, 105);
    svg.add(`<path d="${blobPath(r, 420, 470, 70, 42, 8, 0.1)}" fill="${shade(look.main, -6)}"/>`);
    svg.add(`<path d="${blobPath(r, 700, 480, 70, 42, 8, 0.1)}" fill="${shade(look.main, -6)}"/>`);
    svg.add(ellipse(545, 405, 80, 28, "#ffffff", ` opacity="0.13"`));
    svg.add(ellipse(800, 410, 70, 26, shade(look.accent, -25)));
    svg.add(ellipse(800, 406, 62, 21, look.accent));
    garnish(svg, r, look, 560, 440, 180, 90, 4, 30);
    svg.add(wheel(360, 420, 36, "#5c9a2e", "#b9dc6a", 0.55));
    return;
  }
  if (/salmon/.test(slug)) {
    mound(svg, r, look.accent, 480, 470, 150, 80); // rice
    for (let i = 0; i < 2; i++) {
      const x = 650 + i * 130;
      const y = 440 + i * 45;
      const t = `transform="rotate(-8 ${f(x)} ${f(y)})"`;
      svg.add(
        `<rect x="${f(x - 95)}" y="${f(y - 40)}" width="190" height="88" rx="36" fill="${shade(look.main, -14)}" ${t}/>`,
      );
      svg.add(
        `<rect x="${f(x - 95)}" y="${f(y - 50)}" width="190" height="84" rx="36" fill="${look.main}" ${t}/>`,
      );
      for (let k = 0; k < 5; k++)
        svg.add(
          `<path d="M${f(x - 70 + k * 32)},${f(y - 42)} q12,34 0,70" stroke="${shade(look.main, -22)}" stroke-width="4" fill="none" opacity="0.45" ${t}/>`,
        );
      svg.add(
        `<rect x="${f(x - 82)}" y="${f(y - 46)}" width="164" height="28" rx="14" fill="#7a3416" opacity="0.35" ${t}/>`,
      );
    }
    garnish(svg, r, { ...look, dots: "#f4ead2" }, 640, 450, 200, 70, 5, 26);
    return;
  }
  if (/mango/.test(slug)) {
    // Coconut rice with a fan of mango slices.
    mound(svg, r, look.main, 500, 470, 170, 95);
    for (let i = 0; i < 40; i++) {
      const [x, y] = scatterInEllipse(r, 500, 465, 140, 75);
      svg.add(
        ellipse(
          x,
          y,
          7,
          3.5,
          "#ffffff",
          ` opacity="0.8" transform="rotate(${f(between(r, 0, 180))} ${f(x)} ${f(y)})"`,
        ),
      );
    }
    for (let i = 0; i < 6; i++) {
      const a = -40 + i * 16;
      svg.add(
        `<g transform="rotate(${f(a)} 620 520)"><path d="M620,520 Q650,380 780,330 Q700,430 620,520Z" fill="${shade(look.accent, -10)}"/>` +
          `<path d="M624,514 Q652,388 770,336 Q694,432 624,514Z" fill="${svg.linear([
            [0, shade(look.accent, 10)],
            [1, look.accent],
          ])}"/></g>`,
      );
    }
    svg.add(
      `<path d="M400,440 C440,410 520,470 580,440" stroke="#fffaf0" stroke-width="14" fill="none" stroke-linecap="round" opacity="0.9"/>`,
    );
    garnish(svg, r, look, 520, 460, 150, 70, 3, 26);
    return;
  }
  if (/kimchi/.test(slug)) {
    mound(svg, r, look.main, 600, 460, 230, 120);
    for (let i = 0; i < 14; i++) {
      const [x, y] = scatterInEllipse(r, 600, 460, 190, 95);
      svg.add(
        `<path d="${blobPath(r, x, y, 16, 9, 6, 0.3)}" fill="${shade(look.main, between(r, -18, -6))}"/>`,
      );
    }
    svg.add(egg(r, 610, 420, 92));
    garnish(svg, r, look, 600, 460, 210, 100, 6, 30);
    return;
  }
  if (/carrot/.test(slug)) {
    for (let i = 0; i < 7; i++) {
      const y = 400 + i * 20 + between(r, -6, 6);
      const x = 600 + between(r, -40, 40);
      svg.add(
        `<path d="M${f(x - 250)},${f(y)} Q${f(x)},${f(y - 34)} ${f(x + 250)},${f(y + 10)} Q${f(x)},${f(y + 12)} ${f(x - 250)},${f(y)}Z" fill="${shade(look.main, between(r, -8, 6))}"/>`,
      );
    }
    svg.add(
      `<path d="M390,430 C470,400 520,480 600,450 S730,420 800,470" stroke="${look.accent}" stroke-width="12" fill="none" stroke-linecap="round"/>`,
    );
    garnish(svg, r, look, 600, 455, 230, 90, 8, 26);
    return;
  }
  if (/bok-choy/.test(slug)) {
    for (let i = 0; i < 6; i++) {
      const x = 400 + i * 34 + between(r, -8, 8);
      const y = 420 + i * 26 + between(r, -8, 8);
      const a = between(r, 58, 78);
      svg.add(
        `<g transform="rotate(${f(a)} ${f(x)} ${f(y)})"><path d="M${f(x)},${f(y)} q-75,-110 0,-210 q75,100 0,210Z" fill="${shade(look.main, between(r, -10, 6))}"/>` +
          `<path d="M${f(x - 16)},${f(y)} q6,-80 16,-110 q10,30 16,110Z" fill="${look.accent}"/></g>`,
      );
    }
    garnish(svg, r, look, 600, 470, 220, 80, 0, 30);
    for (let i = 0; i < 10; i++) {
      const [x, y] = scatterInEllipse(r, 600, 460, 220, 80);
      svg.add(ellipse(x, y, 8, 5, "#e9c46a"));
    }
    return;
  }
  if (/mapo/.test(slug)) {
    mound(svg, r, look.main, 600, 465, 270, 130);
    for (let i = 0; i < 16; i++) {
      const [x, y] = scatterInEllipse(r, 600, 460, 220, 95);
      const s = between(r, 26, 36);
      svg.add(
        `<rect x="${f(x - s / 2)}" y="${f(y - s / 2)}" width="${f(s)}" height="${f(s * 0.8)}" rx="6" fill="${look.accent}" transform="rotate(${f(between(r, -20, 20))} ${f(x)} ${f(y)})"/>`,
      );
      svg.add(
        `<rect x="${f(x - s / 2)}" y="${f(y + s * 0.2)}" width="${f(s)}" height="${f(s * 0.15)}" rx="3" fill="${shade(look.accent, -15)}" transform="rotate(${f(between(r, -20, 20))} ${f(x)} ${f(y)})"/>`,
      );
    }
    garnish(svg, r, look, 600, 460, 240, 100, 7, 40);
    return;
  }
  // Generic main: grain bed plus the dish.
  mound(svg, r, look.accent, 520 + between(r, -20, 20), 470, 170, 90);
  mound(svg, r, look.main, 660 + between(r, -20, 20), 460, 190, 100);
  garnish(svg, r, look, 620, 455, 230, 100, 6, 30);
}

function sceneBowl(svg: Svg, r: Rng, look: Look, slug: string): void {
  const b = bowl(svg, r, 600, 390, 330, 230);
  svg.add(
    ellipse(
      b.cx,
      b.cy,
      b.rx,
      b.ry,
      svg.radial(
        [
          [0, shade(look.main, 10)],
          [0.75, look.main],
          [1, shade(look.main, -15)],
        ],
        0.45,
        0.4,
        0.65,
      ),
    ),
  );
  if (/onion-soup/.test(slug)) {
    svg.add(
      `<path d="${blobPath(r, b.cx, b.cy - 4, b.rx * 0.62, b.ry * 0.62, 12, 0.1)}" fill="${look.accent}"/>`,
    );
    for (let i = 0; i < 12; i++) {
      const [x, y] = scatterInEllipse(r, b.cx, b.cy - 4, b.rx * 0.5, b.ry * 0.5);
      svg.add(
        `<path d="${blobPath(r, x, y, 20, 10, 6, 0.3)}" fill="${shade(look.accent, -20, 10)}" opacity="0.7"/>`,
      );
    }
    garnish(svg, r, look, b.cx, b.cy, b.rx * 0.7, b.ry * 0.7, 3, 10);
    return;
  }
  if (/miso-soup/.test(slug)) {
    for (let i = 0; i < 9; i++) {
      const [x, y] = scatterInEllipse(r, b.cx, b.cy, b.rx * 0.75, b.ry * 0.7);
      svg.add(
        `<rect x="${f(x - 18)}" y="${f(y - 12)}" width="36" height="26" rx="5" fill="${look.accent}"/>`,
      );
    }
    for (let i = 0; i < 7; i++) {
      const [x, y] = scatterInEllipse(r, b.cx, b.cy, b.rx * 0.8, b.ry * 0.75);
      svg.add(`<path d="${blobPath(r, x, y, 26, 10, 7, 0.35)}" fill="${look.dots}" opacity="0.85"/>`);
    }
    for (let i = 0; i < 14; i++) {
      const [x, y] = scatterInEllipse(r, b.cx, b.cy, b.rx * 0.8, b.ry * 0.75);
      svg.add(
        `<circle cx="${f(x)}" cy="${f(y)}" r="7" fill="none" stroke="${look.garnish}" stroke-width="4"/>`,
      );
    }
    return;
  }
  if (/risotto/.test(slug)) {
    for (let i = 0; i < 80; i++) {
      const [x, y] = scatterInEllipse(r, b.cx, b.cy, b.rx * 0.92, b.ry * 0.9);
      svg.add(
        ellipse(
          x,
          y,
          7,
          3.5,
          shade(look.main, 8),
          ` transform="rotate(${f(between(r, 0, 180))} ${f(x)} ${f(y)})"`,
        ),
      );
    }
    for (let i = 0; i < 8; i++) {
      const [x, y] = scatterInEllipse(r, b.cx, b.cy, b.rx * 0.7, b.ry * 0.65);
      svg.add(
        `<path d="M${f(x - 24)},${f(y)} a24,18 0 0 1 48,0Z" fill="${look.accent}"/><rect x="${f(x - 7)}" y="${f(y - 1)}" width="14" height="14" rx="4" fill="${shade(look.accent, 30)}"/>`,
      );
    }
    garnish(svg, r, look, b.cx, b.cy, b.rx * 0.7, b.ry * 0.7, 6, 18);
    return;
  }
  // Curries and stews: chunks, a swirl of cream and herbs.
  for (let i = 0; i < 11; i++) {
    const [x, y] = scatterInEllipse(r, b.cx, b.cy, b.rx * 0.72, b.ry * 0.68);
    svg.add(
      `<path d="${blobPath(r, x, y, between(r, 20, 32), between(r, 12, 18), 7, 0.25)}" fill="${shade(look.accent, between(r, -12, 6))}"/>`,
    );
  }
  svg.add(
    `<path d="M${f(b.cx - b.rx * 0.5)},${f(b.cy)} C${f(b.cx - b.rx * 0.2)},${f(b.cy - b.ry * 0.6)} ${f(b.cx + b.rx * 0.2)},${f(b.cy + b.ry * 0.5)} ${f(b.cx + b.rx * 0.5)},${f(b.cy - b.ry * 0.1)}" stroke="#fffaf0" stroke-width="9" fill="none" stroke-linecap="round" opacity="0.7"/>`,
  );
  garnish(svg, r, look, b.cx, b.cy, b.rx * 0.75, b.ry * 0.7, 7, 20);
}

function sceneSalad(svg: Svg, r: Rng, look: Look, slug: string): void {
  const b = bowl(svg, r, 600, 410, 360, 170);
  svg.add(ellipse(b.cx, b.cy, b.rx, b.ry, shade(look.main, -25)));
  const extra = look.extra ?? shade(look.garnish, 10);
  const items = 26;
  for (let i = 0; i < items; i++) {
    const [x, y] = scatterInEllipse(r, b.cx, b.cy - 10, b.rx * 0.85, b.ry * 0.8);
    const kind = i % 4;
    if (kind === 0)
      svg.add(
        `<path d="M${f(x - 30)},${f(y)} a30,24 0 0 1 60,0Z" fill="${look.main}" transform="rotate(${f(between(r, -40, 40))} ${f(x)} ${f(y)})"/>`,
      );
    else if (kind === 1) svg.add(wheel(x, y, between(r, 20, 28), shade(extra, -20), shade(extra, 20), 0.6));
    else if (kind === 2)
      svg.add(
        `<rect x="${f(x - 16)}" y="${f(y - 12)}" width="32" height="26" rx="5" fill="${look.accent}" transform="rotate(${f(between(r, -30, 30))} ${f(x)} ${f(y)})"/>`,
      );
    else svg.add(leaf(x, y, between(r, 30, 48), between(r, 0, 360), shade(look.garnish, between(r, -8, 8))));
  }
  if (/beet|cucumber/.test(slug))
    svg.add(
      `<path d="M${f(b.cx - 120)},${f(b.cy - 10)} C${f(b.cx - 40)},${f(b.cy - 60)} ${f(b.cx + 40)},${f(b.cy + 30)} ${f(b.cx + 130)},${f(b.cy - 20)}" stroke="${look.accent}" stroke-width="12" fill="none" stroke-linecap="round" opacity="0.9"/>`,
    );
  for (let i = 0; i < 14; i++) {
    const [x, y] = scatterInEllipse(r, b.cx, b.cy - 10, b.rx * 0.8, b.ry * 0.75);
    svg.add(ellipse(x, y, 9, 6, look.dots));
  }
}

function sceneGlass(svg: Svg, r: Rng, look: Look): void {
  const cx = 600;
  shadow(svg, cx, 660, 170, 36, 0.22);
  const top = 200;
  const bottom = 650;
  const tw = 140;
  const bw = 110;
  const liquidTop = top + 70;
  const lw = tw - ((tw - bw) * (liquidTop - top)) / (bottom - top);
  const glassPath = `M${cx - tw},${top} L${cx - bw},${bottom - 16} Q${cx - bw},${bottom} ${cx - bw + 16},${bottom} L${cx + bw - 16},${bottom} Q${cx + bw},${bottom} ${cx + bw},${bottom - 16} L${cx + tw},${top}Z`;
  const liquid = `M${f(cx - lw + 8)},${liquidTop} L${cx - bw + 8},${bottom - 18} Q${cx - bw + 8},${bottom - 8} ${cx - bw + 22},${bottom - 8} L${cx + bw - 22},${bottom - 8} Q${cx + bw - 8},${bottom - 8} ${cx + bw - 8},${bottom - 18} L${f(cx + lw - 8)},${liquidTop}Z`;
  // Straw behind the ice.
  svg.add(
    `<path d="M${cx + 40},${bottom - 60} L${cx + 110},${top - 110}" stroke="${shade(look.accent, -5)}" stroke-width="16" stroke-linecap="round"/>`,
  );
  svg.add(
    `<path d="${liquid}" fill="${svg.linear([
      [0, shade(look.main, 4)],
      [1, shade(look.main, -14)],
    ])}"/>`,
  );
  for (let i = 0; i < 5; i++) {
    const x = cx + between(r, -70, 60);
    const y = liquidTop + 30 + i * 62 + between(r, -10, 10);
    svg.add(
      `<rect x="${f(x - 30)}" y="${f(y - 30)}" width="60" height="56" rx="10" fill="#ffffff" opacity="0.45" transform="rotate(${f(between(r, -25, 25))} ${f(x)} ${f(y)})"/>`,
    );
  }
  for (let i = 0; i < 18; i++) {
    const x = cx + between(r, -90, 90);
    const y = between(r, liquidTop + 20, bottom - 30);
    svg.add(`<circle cx="${f(x)}" cy="${f(y)}" r="${f(between(r, 2.5, 6))}" fill="#ffffff" opacity="0.6"/>`);
  }
  svg.add(`<path d="${glassPath}" fill="#ffffff" opacity="0.22" stroke="#ffffff" stroke-width="5"/>`);
  svg.add(
    `<path d="M${cx - tw + 26},${top + 30} L${cx - bw + 18},${bottom - 40}" stroke="#ffffff" stroke-width="10" stroke-linecap="round" opacity="0.55"/>`,
  );
  svg.add(ellipse(cx, top, tw, 22, "none", ` stroke="#ffffff" stroke-width="5" opacity="0.8"`));
  svg.add(wheel(cx - tw + 20, top + 6, 58, "#5c9a2e", "#c8e37a", 0.92));
  for (let i = 0; i < 4; i++)
    svg.add(
      leaf(
        cx - 10 + i * 18,
        top - 4,
        between(r, 40, 56),
        between(r, 200, 330),
        shade(look.garnish, between(r, -6, 8)),
      ),
    );
}

function sceneMug(svg: Svg, r: Rng, look: Look): void {
  const cx = 580;
  const top = 300;
  const bottom = 620;
  const rx = 170;
  const hue = between(r, 0, 360);
  const clay = r() < 0.5 ? "#f4efe6" : hsl(hue, between(r, 25, 45), between(r, 50, 65));
  shadow(svg, cx + 40, bottom + 10, 260, 40, 0.24);
  // Saucer.
  svg.add(ellipse(cx, bottom + 6, 280, 62, shade(clay, -16)));
  svg.add(
    ellipse(
      cx,
      bottom,
      280,
      58,
      svg.linear([
        [0, shade(clay, 8)],
        [1, clay],
      ]),
    ),
  );
  svg.add(ellipse(cx, bottom - 2, 190, 34, shade(clay, -8)));
  // Handle, body, liquid.
  svg.add(
    `<path d="M${cx + rx - 6},${top + 70} C${cx + rx + 110},${top + 50} ${cx + rx + 120},${bottom - 120} ${cx + rx - 10},${bottom - 80}" stroke="${shade(clay, -10)}" stroke-width="34" fill="none" stroke-linecap="round"/>`,
  );
  svg.add(
    `<path d="M${cx - rx},${top} L${cx - rx + 14},${bottom - 30} Q${cx - rx + 20},${bottom} ${cx - rx + 60},${bottom} L${cx + rx - 60},${bottom} Q${cx + rx - 20},${bottom} ${cx + rx - 14},${bottom - 30} L${cx + rx},${top}Z" fill="${svg.linear(
      [
        [0, shade(clay, 10)],
        [0.55, clay],
        [1, shade(clay, -18)],
      ],
      0,
      0,
      1,
      0,
    )}"/>`,
  );
  svg.add(ellipse(cx, top, rx, 44, shade(clay, 12)));
  svg.add(
    ellipse(
      cx,
      top + 4,
      rx - 14,
      34,
      svg.radial([
        [0, shade(look.main, 10)],
        [1, shade(look.main, -10)],
      ]),
    ),
  );
  svg.add(ellipse(cx - 30, top, 60, 10, look.accent, ` opacity="0.5"`));
  // Steam.
  for (let i = 0; i < 3; i++) {
    const x = cx - 60 + i * 60;
    svg.add(
      `<path d="M${x},${top - 40} c-30,-40 30,-70 0,-110 c-25,-35 20,-60 10,-90" stroke="#ffffff" stroke-width="10" fill="none" stroke-linecap="round" opacity="0.55"/>`,
    );
  }
  // Spices beside the saucer: cinnamon stick and cardamom pods.
  svg.add(
    `<rect x="830" y="610" width="190" height="26" rx="13" fill="${look.dots}" transform="rotate(-12 925 623)"/>`,
  );
  svg.add(
    `<rect x="830" y="606" width="190" height="10" rx="5" fill="${shade(look.dots, 15)}" transform="rotate(-12 925 611)"/>`,
  );
  for (let i = 0; i < 4; i++)
    svg.add(leaf(250 + i * 40, 650 + between(r, -15, 15), 34, between(r, 0, 360), "#9bb36a", 0.5));
}

function sceneLoaf(svg: Svg, r: Rng, look: Look): void {
  board(svg, r, 600, 520, 760, 250);
  const crust = look.main;
  // Loaf.
  svg.add(
    `<path d="M330,520 L330,430 C330,330 420,300 520,300 L700,300 C800,300 860,340 860,430 L860,520 Q860,545 835,545 L355,545 Q330,545 330,520Z" fill="${shade(crust, -12)}"/>`,
  );
  svg.add(
    `<path d="M330,500 L330,430 C330,330 420,300 520,300 L700,300 C800,300 860,340 860,430 L860,500 Q860,520 835,520 L355,520 Q330,520 330,500Z" fill="${svg.linear(
      [
        [0, shade(crust, 10)],
        [1, crust],
      ],
    )}"/>`,
  );
  svg.add(
    `<path d="M380,360 C480,330 640,330 820,370" stroke="${shade(crust, -18)}" stroke-width="16" fill="none" stroke-linecap="round" opacity="0.6"/>`,
  );
  svg.add(
    `<path d="M420,350 C520,320 620,320 760,345" stroke="${shade(crust, 18)}" stroke-width="8" fill="none" stroke-linecap="round" opacity="0.6"/>`,
  );
  // Two slices leaning in front.
  for (let i = 0; i < 2; i++) {
    const x = 860 + i * 70;
    svg.add(
      `<g transform="rotate(${8 + i * 6} ${x} 540)"><rect x="${x - 20}" y="380" width="120" height="160" rx="34" fill="${shade(crust, -8)}"/>` +
        `<rect x="${x - 12}" y="390" width="104" height="142" rx="28" fill="${shade(look.accent, 8)}"/></g>`,
    );
    for (let k = 0; k < 6; k++)
      svg.add(
        ellipse(x + 40 + between(r, -30, 30), 460 + between(r, -50, 50), 5, 4, look.dots, ` opacity="0.7"`),
      );
  }
  garnish(svg, r, look, 600, 420, 180, 60, 0, 16);
}

function sceneBuns(svg: Svg, r: Rng, look: Look): void {
  board(svg, r, 600, 500, 820, 300);
  const pos: Pt[] = [];
  for (let row = 0; row < 2; row++)
    for (let col = 0; col < 4 - row; col++)
      pos.push([330 + col * 170 + row * 90 + between(r, -12, 12), 440 + row * 110 + between(r, -8, 8)]);
  for (const [x, y] of pos) {
    svg.add(ellipse(x, y + 18, 84, 50, shade(look.main, -20)));
    svg.add(
      ellipse(
        x,
        y,
        84,
        58,
        svg.radial(
          [
            [0, shade(look.accent, 8)],
            [0.7, look.main],
            [1, shade(look.main, -10)],
          ],
          0.45,
          0.35,
          0.65,
        ),
      ),
    );
    svg.add(
      `<path d="M${f(x - 50)},${f(y + 4)} C${f(x - 30)},${f(y - 40)} ${f(x + 30)},${f(y - 40)} ${f(x + 40)},${f(y)} C${f(x + 30)},${f(y + 30)} ${f(x - 20)},${f(y + 26)} ${f(x - 10)},${f(y - 6)}" stroke="${shade(look.main, -18)}" stroke-width="9" fill="none" stroke-linecap="round" opacity="0.7"/>`,
    );
    for (let k = 0; k < 9; k++)
      svg.add(
        `<rect x="${f(x + between(r, -55, 55))}" y="${f(y + between(r, -38, 20))}" width="8" height="7" rx="2" fill="${look.dots}"/>`,
      );
  }
}

function scenePizza(svg: Svg, r: Rng, look: Look): void {
  board(svg, r, 600, 470, 900, 380);
  const cx = 600;
  const cy = 460;
  svg.add(ellipse(cx, cy + 12, 360, 160, shade("#d9a55a", -18)));
  svg.add(
    ellipse(
      cx,
      cy,
      360,
      160,
      svg.radial([
        [0.8, "#e7b86a"],
        [1, "#c98a3e"],
      ]),
    ),
  );
  for (let i = 0; i < 10; i++) {
    const a = r() * Math.PI * 2;
    svg.add(ellipse(cx + Math.cos(a) * 340, cy + Math.sin(a) * 150, 16, 9, "#7a4a22", ` opacity="0.55"`));
  }
  svg.add(`<path d="${blobPath(r, cx, cy, 305, 132, 14, 0.03)}" fill="${look.main}"/>`);
  for (let i = 0; i < 9; i++) {
    const [x, y] = scatterInEllipse(r, cx, cy, 240, 100);
    svg.add(
      `<path d="${blobPath(r, x, y, between(r, 34, 46), between(r, 18, 24), 8, 0.2)}" fill="${look.accent}"/>`,
    );
    svg.add(ellipse(x + 6, y - 4, 12, 6, "#ffffff", ` opacity="0.5"`));
  }
  for (let i = 0; i < 7; i++) {
    const [x, y] = scatterInEllipse(r, cx, cy, 230, 95);
    svg.add(leaf(x, y, between(r, 34, 48), between(r, 0, 360), shade(look.garnish, between(r, -6, 8)), 0.5));
  }
  svg.add(
    `<path d="M${cx},${cy} L${cx + 300},${cy - 80}" stroke="#ffffff" stroke-width="3" opacity="0.35"/>`,
  );
  svg.add(
    `<path d="M${cx},${cy} L${cx - 160},${cy + 135}" stroke="#ffffff" stroke-width="3" opacity="0.35"/>`,
  );
}

function sceneDough(svg: Svg, r: Rng, look: Look): void {
  const b = bowl(svg, r, 600, 420, 340, 200);
  svg.add(ellipse(b.cx, b.cy, b.rx, b.ry, shade(look.main, -20)));
  svg.add(
    `<path d="M${f(b.cx - 230)},${f(b.cy + 20)} C${f(b.cx - 220)},${f(b.cy - 170)} ${f(b.cx + 220)},${f(b.cy - 170)} ${f(b.cx + 230)},${f(b.cy + 20)} Q${f(b.cx)},${f(b.cy + 60)} ${f(b.cx - 230)},${f(b.cy + 20)}Z" fill="${svg.radial(
      [
        [0, look.accent],
        [0.8, look.main],
        [1, shade(look.main, -8)],
      ],
      0.45,
      0.3,
      0.7,
    )}"/>`,
  );
  for (let i = 0; i < 40; i++) {
    const [x, y] = scatterInEllipse(r, b.cx, b.cy - 60, 170, 60);
    svg.add(`<circle cx="${f(x)}" cy="${f(y)}" r="${f(between(r, 1.5, 4))}" fill="#ffffff" opacity="0.8"/>`);
  }
  // Wheat sprig beside the bowl.
  for (let i = 0; i < 6; i++) svg.add(leaf(930 + i * 14, 640 - i * 26, 34, -70, "#d8b25a", 0.45));
  svg.add(`<path d="M920,690 L1010,480" stroke="#c9a24a" stroke-width="5" stroke-linecap="round"/>`);
}

function sceneCake(svg: Svg, r: Rng, look: Look): void {
  const cx = 600;
  // Stand.
  shadow(svg, cx, 660, 240, 40, 0.22);
  svg.add(`<path d="M${cx - 60},650 L${cx - 30},540 L${cx + 30},540 L${cx + 60},650Z" fill="#e9e4dc"/>`);
  svg.add(ellipse(cx, 650, 150, 26, "#ddd6cc"));
  svg.add(ellipse(cx, 540, 330, 70, "#ddd6cc"));
  svg.add(
    ellipse(
      cx,
      532,
      330,
      66,
      svg.linear([
        [0, "#ffffff"],
        [1, "#efe9e1"],
      ]),
    ),
  );
  // Cake cylinder.
  const top = 360;
  const rx = 270;
  const ry = 70;
  svg.add(
    `<path d="M${cx - rx},${top} L${cx - rx},${top + 150} A${rx},${ry} 0 0 0 ${cx + rx},${top + 150} L${cx + rx},${top}Z" fill="${svg.linear(
      [
        [0, shade(look.main, 8)],
        [0.5, look.main],
        [1, shade(look.main, -10)],
      ],
      0,
      0,
      1,
      0,
    )}"/>`,
  );
  svg.add(ellipse(cx, top, rx, ry, shade(look.main, 6)));
  // Crackled top and a dusting of sugar.
  for (let i = 0; i < 5; i++) {
    const [x, y] = scatterInEllipse(r, cx, top, rx * 0.7, ry * 0.6);
    svg.add(
      `<path d="M${f(x - 40)},${f(y)} q20,${f(between(r, -14, 14))} 40,0 t40,0" stroke="${shade(look.main, -14)}" stroke-width="4" fill="none" opacity="0.7"/>`,
    );
  }
  for (let i = 0; i < 90; i++) {
    const [x, y] = scatterInEllipse(r, cx, top, rx * 0.95, ry * 0.92);
    svg.add(
      `<circle cx="${f(x)}" cy="${f(y)}" r="${f(between(r, 1.5, 4))}" fill="${look.accent}" opacity="0.85"/>`,
    );
  }
  // Berries on top.
  for (let i = 0; i < 5; i++) {
    const [x, y] = scatterInEllipse(r, cx + 40, top - 5, rx * 0.4, ry * 0.4);
    svg.add(
      `<circle cx="${f(x)}" cy="${f(y)}" r="16" fill="${look.garnish}"/><circle cx="${f(x - 5)}" cy="${f(y - 5)}" r="4" fill="#ffffff" opacity="0.5"/>`,
    );
  }
}

function sceneStack(svg: Svg, r: Rng, look: Look): void {
  const tint = hsl(between(r, 0, 360), between(r, 15, 30), 88);
  plate(svg, 600, 540, 380, 150, tint);
  const n = 5;
  for (let i = 0; i < n; i++) {
    const y = 520 - i * 34;
    const dx = between(r, -10, 10);
    svg.add(ellipse(600 + dx, y + 14, 240, 70, shade(look.main, -18)));
    svg.add(
      ellipse(
        600 + dx,
        y,
        240,
        70,
        svg.radial(
          [
            [0, shade(look.main, 14)],
            [1, look.main],
          ],
          0.5,
          0.45,
          0.6,
        ),
      ),
    );
  }
  const ty = 520 - (n - 1) * 34;
  svg.add(`<path d="${blobPath(r, 600, ty, 150, 40, 9, 0.1)}" fill="${look.accent}" opacity="0.9"/>`);
  svg.add(`<path d="M470,${ty + 20} q-10,40 4,70 q10,-30 6,-72Z" fill="${look.accent}" opacity="0.85"/>`);
  svg.add(`<path d="M720,${ty + 24} q10,60 -2,100 q-8,-40 -8,-98Z" fill="${look.accent}" opacity="0.85"/>`);
  svg.add(
    `<rect x="565" y="${ty - 36}" width="70" height="46" rx="8" fill="${look.dots}"/><rect x="565" y="${ty - 36}" width="70" height="14" rx="7" fill="#fffbe6"/>`,
  );
  for (let i = 0; i < 9; i++) {
    const [x, y] = scatterInEllipse(r, 600, 600, 330, 50);
    if (Math.abs(x - 600) < 230 && y < 610) continue;
    svg.add(
      `<circle cx="${f(x)}" cy="${f(y)}" r="15" fill="${look.garnish}"/><circle cx="${f(x - 4)}" cy="${f(y - 5)}" r="4" fill="#ffffff" opacity="0.45"/>`,
    );
  }
}

function sceneCrepes(svg: Svg, r: Rng, look: Look): void {
  const tint = hsl(between(r, 0, 360), between(r, 15, 30), 88);
  plate(svg, 600, 480, 390, 170, tint);
  for (let i = 0; i < 3; i++) {
    const x = 470 + i * 120;
    const y = 480 + (i % 2) * 16;
    svg.add(
      `<g transform="rotate(${f(-20 + i * 18)} ${x} ${y})"><path d="M${x - 110},${y + 40} Q${x},${y - 150} ${x + 110},${y + 40} Q${x},${y + 70} ${x - 110},${y + 40}Z" fill="${shade(look.main, -12)}"/>` +
        `<path d="M${x - 100},${y + 30} Q${x},${y - 140} ${x + 100},${y + 30} Q${x},${y + 50} ${x - 100},${y + 30}Z" fill="${svg.radial(
          [
            [0, shade(look.main, 10)],
            [1, look.main],
          ],
        )}"/></g>`,
    );
    for (let k = 0; k < 6; k++)
      svg.add(
        ellipse(
          x + between(r, -60, 60),
          y + between(r, -40, 20),
          between(r, 5, 10),
          between(r, 3, 6),
          shade(look.main, -22),
          ` opacity="0.45"`,
        ),
      );
  }
  for (let i = 0; i < 60; i++) {
    const [x, y] = scatterInEllipse(r, 590, 460, 230, 90);
    svg.add(`<circle cx="${f(x)}" cy="${f(y)}" r="2.5" fill="#ffffff" opacity="0.9"/>`);
  }
  svg.add(
    `<path d="M820,500 a60,60 0 0 1 100,-40 L870,510Z" fill="${look.accent}"/><path d="M828,498 a52,52 0 0 1 86,-36" stroke="#fff7c2" stroke-width="6" fill="none"/>`,
  );
}

function sceneDip(svg: Svg, r: Rng, look: Look, slug: string): void {
  const tint = hsl(between(r, 0, 360), between(r, 10, 25), 86);
  plate(svg, 600, 500, 430, 170, tint);
  // Dippers around the bowl.
  for (let i = 0; i < 9; i++) {
    const a = Math.PI * (0.95 + (i / 8) * 1.1) + between(r, -0.08, 0.08);
    const x = 600 + Math.cos(a + Math.PI) * 330;
    const y = 520 + Math.sin(a + Math.PI) * 110;
    if (/tzatziki|hummus/.test(slug) && i % 2 === 0) {
      svg.add(
        `<rect x="${f(x - 60)}" y="${f(y - 10)}" width="120" height="22" rx="8" fill="${i % 4 === 0 ? "#e9772b" : "#8cc152"}" transform="rotate(${f(between(r, -30, 30))} ${f(x)} ${f(y)})"/>`,
      );
    } else {
      svg.add(
        `<path d="M${f(x - 48)},${f(y + 26)} L${f(x + 4)},${f(y - 44)} L${f(x + 52)},${f(y + 22)}Z" fill="#e8c784" stroke="#cfa35a" stroke-width="4" stroke-linejoin="round" transform="rotate(${f(between(r, -40, 40))} ${f(x)} ${f(y)})"/>`,
      );
    }
  }
  const b = bowl(svg, r, 600, 420, 210, 130);
  svg.add(
    ellipse(
      b.cx,
      b.cy,
      b.rx,
      b.ry,
      svg.radial([
        [0, shade(look.main, 8)],
        [1, shade(look.main, -8)],
      ]),
    ),
  );
  svg.add(
    `<path d="M${f(b.cx - 110)},${f(b.cy)} C${f(b.cx - 90)},${f(b.cy - 40)} ${f(b.cx + 90)},${f(b.cy - 40)} ${f(b.cx + 110)},${f(b.cy)} C${f(b.cx + 80)},${f(b.cy + 30)} ${f(b.cx - 60)},${f(b.cy + 30)} ${f(b.cx - 40)},${f(b.cy)}" stroke="${shade(look.main, -12)}" stroke-width="8" fill="none" opacity="0.6"/>`,
  );
  if (/hummus/.test(slug)) svg.add(ellipse(b.cx, b.cy - 4, 70, 18, "#d4a52a", ` opacity="0.75"`));
  if (/salsa/.test(slug)) {
    for (let i = 0; i < 22; i++) {
      const [x, y] = scatterInEllipse(r, b.cx, b.cy, b.rx * 0.85, b.ry * 0.8);
      svg.add(
        `<rect x="${f(x - 6)}" y="${f(y - 5)}" width="12" height="10" rx="3" fill="${pick(r, [look.accent, look.dots, "#f4f1e4"])}"/>`,
      );
    }
  }
  garnish(svg, r, look, b.cx, b.cy, b.rx * 0.7, b.ry * 0.7, 4, 22);
}

function sceneTacos(svg: Svg, r: Rng, look: Look): void {
  const tint = hsl(between(r, 0, 360), between(r, 10, 25), 88);
  plate(svg, 600, 500, 420, 170, tint);
  for (let i = 0; i < 3; i++) {
    const x = 420 + i * 180;
    const y = 500 + (i === 1 ? -16 : 8);
    const a = -10 + i * 10;
    let s = `<g transform="rotate(${a} ${x} ${y})">`;
    s += `<path d="M${x - 130},${y} A130,100 0 0 0 ${x + 130},${y}Z" fill="${shade(look.main, -10)}"/>`;
    // Filling peeking out of the fold.
    s += `<path d="${blobPath(r, x, y - 6, 118, 26, 10, 0.2)}" fill="${look.accent}"/>`;
    for (let k = 0; k < 5; k++)
      s += `<path d="M${f(x - 100 + k * 45)},${f(y - 20)} q12,-30 28,-4" stroke="${look.dots}" stroke-width="7" fill="none" stroke-linecap="round"/>`;
    for (let k = 0; k < 4; k++)
      s += ellipse(x - 80 + k * 50 + between(r, -8, 8), y - 22, 18, 10, look.extra ?? "#9ccc65");
    for (let k = 0; k < 4; k++)
      s += `<rect x="${f(x - 90 + k * 55)}" y="${f(y - 34)}" width="20" height="14" rx="4" fill="#f7f3ea"/>`;
    for (let k = 0; k < 3; k++) s += leaf(x - 70 + k * 60, y - 30, 28, between(r, 180, 360), look.garnish);
    s += `<path d="M${x - 130},${y} A130,100 0 0 0 ${x + 130},${y} A130,60 0 0 1 ${x - 130},${y}Z" fill="${svg.linear(
      [
        [0, look.main],
        [1, shade(look.main, -8)],
      ],
    )}"/>`;
    for (let k = 0; k < 5; k++)
      s += ellipse(
        x + between(r, -90, 90),
        y + between(r, 40, 80),
        6,
        4,
        shade(look.main, -25),
        ` opacity="0.5"`,
      );
    svg.add(s + "</g>");
  }
  svg.add(wheel(860, 610, 44, "#5c9a2e", "#c8e37a", 0.6));
}

function sceneJar(svg: Svg, r: Rng, look: Look): void {
  const cx = 600;
  const top = 250;
  const bottom = 640;
  const w = 170;
  shadow(svg, cx, bottom + 6, 220, 34, 0.22);
  const inner = (y0: number, y1: number, fill: string) =>
    `<path d="M${cx - w + 12},${y0} L${cx - w + 12},${y1 - 30} Q${cx - w + 12},${y1 - 10} ${cx - w + 40},${y1 - 10} L${cx + w - 40},${y1 - 10} Q${cx + w - 12},${y1 - 10} ${cx + w - 12},${y1 - 30} L${cx + w - 12},${y0}Z" fill="${fill}"/>`;
  svg.add(inner(top + 80, bottom, shade(look.main, -6)));
  svg.add(inner(top + 80, top + 220, look.main));
  svg.add(
    `<rect x="${cx - w + 12}" y="${top + 210}" width="${2 * w - 24}" height="26" fill="${shade(look.accent, 25)}" opacity="0.7"/>`,
  );
  svg.add(ellipse(cx, top + 80, w - 12, 32, shade(look.main, 6)));
  for (let i = 0; i < 14; i++) {
    const [x, y] = scatterInEllipse(r, cx, top + 80, w - 40, 22);
    svg.add(
      `<circle cx="${f(x)}" cy="${f(y - 8)}" r="16" fill="${look.accent}"/><circle cx="${f(x - 4)}" cy="${f(y - 13)}" r="4" fill="#ffffff" opacity="0.5"/>`,
    );
  }
  for (let i = 0; i < 10; i++) {
    const [x, y] = scatterInEllipse(r, cx, top + 76, w - 50, 18);
    svg.add(
      ellipse(
        x,
        y - 18,
        9,
        5,
        look.dots,
        ` transform="rotate(${f(between(r, 0, 180))} ${f(x)} ${f(y - 18)})"`,
      ),
    );
  }
  for (let i = 0; i < 30; i++)
    svg.add(
      `<circle cx="${f(cx + between(r, -w + 25, w - 25))}" cy="${f(between(r, top + 120, bottom - 30))}" r="3" fill="#3b332c" opacity="0.45"/>`,
    );
  // Glass.
  svg.add(
    `<path d="M${cx - w},${top + 40} L${cx - w},${bottom - 30} Q${cx - w},${bottom} ${cx - w + 30},${bottom} L${cx + w - 30},${bottom} Q${cx + w},${bottom} ${cx + w},${bottom - 30} L${cx + w},${top + 40}Z" fill="#ffffff" opacity="0.2" stroke="#ffffff" stroke-width="6"/>`,
  );
  svg.add(
    `<rect x="${cx - w + 22}" y="${top + 80}" width="16" height="${bottom - top - 130}" rx="8" fill="#ffffff" opacity="0.5"/>`,
  );
  svg.add(ellipse(cx, top + 40, w, 30, "none", ` stroke="#ffffff" stroke-width="6" opacity="0.85"`));
  // Spoon.
  svg.add(
    `<rect x="${cx + 60}" y="${top - 130}" width="22" height="260" rx="11" fill="#c9ccd1" transform="rotate(18 ${cx + 71} ${top})"/>`,
  );
}

function sceneSkillet(svg: Svg, r: Rng, look: Look, slug: string): void {
  const cx = 580;
  const cy = 470;
  shadow(svg, cx, cy + 70, 380, 120, 0.28);
  svg.add(
    `<rect x="${cx + 330}" y="${cy - 30}" width="300" height="54" rx="27" fill="#2c2c30" transform="rotate(-14 ${cx + 330} ${cy})"/>`,
  );
  svg.add(ellipse(cx, cy + 22, 380, 175, "#232326"));
  svg.add(ellipse(cx, cy, 380, 170, "#3a3a40"));
  svg.add(ellipse(cx, cy + 6, 345, 148, "#1e1e22"));
  if (/cornbread/.test(slug)) {
    svg.add(
      ellipse(
        cx,
        cy + 4,
        335,
        142,
        svg.radial(
          [
            [0, shade(look.main, 12)],
            [0.8, look.main],
            [1, shade(look.main, -20)],
          ],
          0.5,
          0.45,
          0.6,
        ),
      ),
    );
    for (let i = 0; i < 8; i++) {
      const a = (i / 8) * Math.PI * 2;
      svg.add(
        `<line x1="${cx}" y1="${cy + 4}" x2="${f(cx + Math.cos(a) * 330)}" y2="${f(cy + 4 + Math.sin(a) * 140)}" stroke="${shade(look.main, -22)}" stroke-width="4" opacity="0.6"/>`,
      );
    }
    for (let i = 0; i < 24; i++) {
      const [x, y] = scatterInEllipse(r, cx, cy + 4, 300, 120);
      svg.add(ellipse(x, y, 9, 6, look.accent));
    }
    svg.add(
      `<rect x="${cx - 40}" y="${cy - 30}" width="80" height="52" rx="8" fill="#fff3c4"/><rect x="${cx - 40}" y="${cy - 30}" width="80" height="16" rx="8" fill="#fffbe6"/>`,
    );
    return;
  }
  svg.add(
    `<path d="${blobPath(r, cx, cy + 4, 335, 142, 14, 0.02)}" fill="${svg.radial([
      [0, shade(look.main, 8)],
      [1, shade(look.main, -10)],
    ])}"/>`,
  );
  for (let i = 0; i < 30; i++) {
    const [x, y] = scatterInEllipse(r, cx, cy, 300, 125);
    svg.add(
      `<path d="${blobPath(r, x, y, 12, 7, 6, 0.3)}" fill="${shade(look.main, between(r, -14, 10))}"/>`,
    );
  }
  const eggs: Pt[] = [
    [cx - 170, cy - 30],
    [cx, cy - 70],
    [cx + 170, cy - 30],
    [cx - 110, cy + 70],
    [cx + 110, cy + 70],
    [cx, cy + 10],
  ];
  for (const [x, y] of eggs) svg.add(egg(r, x + between(r, -12, 12), y + between(r, -8, 8), 62));
  for (let i = 0; i < 12; i++) {
    const [x, y] = scatterInEllipse(r, cx, cy, 290, 120);
    svg.add(`<rect x="${f(x - 10)}" y="${f(y - 8)}" width="20" height="16" rx="4" fill="${look.dots}"/>`);
  }
  garnish(svg, r, look, cx, cy, 300, 125, 10, 0);
}

// ---------------------------------------------------------------------------------------------------------
// Main

export function illustrate(slug: string, name: string, categories: string[]): string {
  const r = mulberry32(hashString(slug));
  const look = lookFor(slug, r);
  const svg = new Svg();
  background(svg, r, look);
  const scene = sceneFor(slug, categories, name);
  switch (scene) {
    case "plate":
      scenePlate(svg, r, look, slug);
      break;
    case "bowl":
      sceneBowl(svg, r, look, slug);
      break;
    case "salad":
      sceneSalad(svg, r, look, slug);
      break;
    case "glass":
      sceneGlass(svg, r, look);
      break;
    case "mug":
      sceneMug(svg, r, look);
      break;
    case "loaf":
      sceneLoaf(svg, r, look);
      break;
    case "buns":
      sceneBuns(svg, r, look);
      break;
    case "pizza":
      scenePizza(svg, r, look);
      break;
    case "dough":
      sceneDough(svg, r, look);
      break;
    case "cake":
      sceneCake(svg, r, look);
      break;
    case "stack":
      sceneStack(svg, r, look);
      break;
    case "crepes":
      sceneCrepes(svg, r, look);
      break;
    case "dip":
      sceneDip(svg, r, look, slug);
      break;
    case "tacos":
      sceneTacos(svg, r, look);
      break;
    case "jar":
      sceneJar(svg, r, look);
      break;
    case "skillet":
      sceneSkillet(svg, r, look, slug);
      break;
  }
  return svg.toString();
}

function frontMatter(text: string): Record<string, unknown> {
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n/.exec(text);
  if (!m) return {};
  const data = parseYaml(m[1], { schema: "core", maxAliasCount: 0 }) as unknown;
  return data && typeof data === "object" ? (data as Record<string, unknown>) : {};
}

async function main(): Promise<void> {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const args = process.argv.slice(2);
  const opt = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const dir = path.resolve(opt("--dir") ?? path.join(here, "../../data/groups/home/recipes"));
  const only = opt("--only");
  const pngDir = opt("--png");

  sharp.cache(false);
  const files = fs
    .readdirSync(dir)
    .filter((n) => n.endsWith(".md"))
    .sort();
  let written = 0;
  let total = 0;
  for (const file of files) {
    const slug = file.slice(0, -3);
    if (only && slug !== only) continue;
    const fm = frontMatter(fs.readFileSync(path.join(dir, file), "utf8"));
    const name = typeof fm.name === "string" ? fm.name : slug;
    const categories = Array.isArray(fm.categories) ? fm.categories.map(String) : [];
    const svg = illustrate(slug, name, categories);
    const img = sharp(Buffer.from(svg), { density: 72 });
    const webp = await img.clone().webp({ quality: QUALITY, effort: 6 }).toBuffer();
    const out = path.join(dir, slug, "original.webp");
    fs.mkdirSync(path.dirname(out), { recursive: true });
    const same = fs.existsSync(out) && fs.readFileSync(out).equals(webp);
    if (!same) {
      fs.writeFileSync(out, webp);
      written++;
    }
    total += webp.length;
    if (pngDir) {
      fs.mkdirSync(pngDir, { recursive: true });
      await sharp(webp)
        .png()
        .toFile(path.join(pngDir, `${slug}.png`));
    }
    console.log(
      `${slug.padEnd(44)} ${sceneFor(slug, categories, name).padEnd(8)} ${(webp.length / 1024).toFixed(1).padStart(6)} KB${same ? "" : "  written"}`,
    );
  }
  console.log(`${written} written, ${(total / 1024).toFixed(0)} KB total`);
}

await main();
