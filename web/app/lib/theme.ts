/**
 * The Mantine theme from Larder's theme colours (spec §3 Theme; GET /api/app/about/theme). Each colour
 * becomes a light and a dark palette of 10 shades and a virtual colour that follows the colour scheme,
 * so components say `color="primary"` / `"error"` and get the right one in dark mode.
 */
import { createTheme, virtualColor, type MantineColorsTuple, type MantineThemeOverride } from "@mantine/core";
import type { KeyboardEvent } from "react";

export { THEME_DEFAULTS, type ThemeColors } from "./pure-core.js";
import type { ThemeColors } from "./pure-core.js";

export const THEME_COLOR_NAMES = [
  "primary",
  "accent",
  "secondary",
  "success",
  "info",
  "warning",
  "error",
] as const;

/**
 * A theme colour's key as GET /api/app/about/theme names it (`lightPrimary`) read as its parts, for a
 * label ("Primary (light)") and the environment variable that sets it (THEME_LIGHT_PRIMARY); null for
 * a key of another form.
 */
export function themeKeyParts(
  key: string,
): { mode: "light" | "dark"; color: (typeof THEME_COLOR_NAMES)[number]; variable: string } | null {
  const m = /^(light|dark)([A-Z][a-z]+)$/.exec(key);
  const color = m ? THEME_COLOR_NAMES.find((c) => c === m[2].toLowerCase()) : undefined;
  if (!m || !color) return null;
  return { mode: m[1] as "light" | "dark", color, variable: `THEME_${m[1]}_${color}`.toUpperCase() };
}

function rgb(hex: string): [number, number, number] {
  let h = hex.replace("#", "");
  if (h.length === 3 || h.length === 4) h = [...h.slice(0, 3)].map((c) => c + c).join("");
  const n = Number.parseInt(h.slice(0, 6), 16);
  return Number.isNaN(n) ? [128, 128, 128] : [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function mix(a: [number, number, number], b: [number, number, number], amount: number): string {
  const c = a.map((v, i) => Math.round(v + (b[i] - v) * amount));
  return `#${c.map((v) => v.toString(16).padStart(2, "0")).join("")}`;
}

/** Ten shades with the given colour at index 6 (Mantine's default filled shade): tints, then shades. */
export function shadesOf(hex: string): MantineColorsTuple {
  const base = rgb(hex);
  const white: [number, number, number] = [255, 255, 255];
  const black: [number, number, number] = [0, 0, 0];
  const tints = [0.92, 0.8, 0.64, 0.48, 0.32, 0.16].map((a) => mix(base, white, a));
  const darks = [0.15, 0.3, 0.45].map((a) => mix(base, black, a));
  return [...tints, mix(base, base, 0), ...darks] as unknown as MantineColorsTuple;
}

/**
 * Every menu follows the WAI-ARIA menu button pattern. Mantine focuses an invisible placeholder when a
 * menu opens, so a keyboard user opened a menu with nothing focused: without it the focus trap focuses the
 * first item. Mantine opens a menu on Enter and Space (they click its button) but not on ArrowDown or
 * ArrowUp, which the pattern also asks for, ArrowUp on the last item. The handler replaces any onKeyDown
 * of a Menu.Target's child: none has one (LazyMenu handles its not-yet-mounted button itself).
 */
const MENU_BUTTON_PATTERN = {
  Menu: { defaultProps: { withInitialFocusPlaceholder: false } },
  MenuTarget: { defaultProps: { onKeyDown: openMenuOnArrow } },
};

export function openMenuOnArrow(e: KeyboardEvent<HTMLElement>): void {
  if (e.key !== "ArrowDown" && e.key !== "ArrowUp") return;
  if (e.currentTarget.getAttribute("aria-expanded") === "true") return;
  e.preventDefault();
  if (e.key === "ArrowUp") focusLastItemOnOpen(e.currentTarget.ownerDocument);
  e.currentTarget.click();
}

/**
 * Mantine's focus trap puts focus on a menu's first item (or its `data-autofocus` one) a tick after the
 * menu mounts, and once more a tick later; it offers no way to ask for the last. When that focus first
 * lands in a menu, the last item is marked as the one to focus, for the second time, and focused; the mark
 * goes when it loses focus. Focus landing anywhere else, or the person pressing a key or the pointer
 * first, means the menu did not open from this ArrowUp, and the next menu opens as usual. Focus may first
 * go to a menu button: LazyMenu replaces its button when it mounts the menu, and gives the new one focus.
 */
function focusLastItemOnOpen(doc: Document): void {
  const stop = () => {
    doc.removeEventListener("focusin", onFocus, true);
    doc.removeEventListener("keydown", stop, true);
    doc.removeEventListener("pointerdown", stop, true);
  };
  const onFocus = (event: FocusEvent) => {
    const target = event.target instanceof Element ? event.target : null;
    if (target?.getAttribute("aria-haspopup") === "menu") return;
    stop();
    const items = target?.closest("[role=menu]")?.querySelectorAll<HTMLElement>(MENU_ITEMS);
    const last = items?.[items.length - 1];
    if (!last) return;
    last.setAttribute("data-autofocus", "");
    last.addEventListener("blur", () => last.removeAttribute("data-autofocus"), { once: true });
    last.focus();
  };
  doc.addEventListener("focusin", onFocus, true);
  doc.addEventListener("keydown", stop, true);
  doc.addEventListener("pointerdown", stop, true);
}

/** The items Mantine's arrow keys move between. */
const MENU_ITEMS = "[data-menu-item]:not([data-disabled])";

const cap = (s: string) => s[0].toUpperCase() + s.slice(1);

export function buildTheme(colors: ThemeColors): MantineThemeOverride {
  const palette: Record<string, MantineColorsTuple> = {};
  for (const name of THEME_COLOR_NAMES) {
    palette[`${name}Light`] = shadesOf(colors[`light${cap(name)}` as keyof ThemeColors]);
    palette[`${name}Dark`] = shadesOf(colors[`dark${cap(name)}` as keyof ThemeColors]);
    palette[name] = virtualColor({ name, light: `${name}Light`, dark: `${name}Dark` });
  }
  return createTheme({
    // Dialogs, menus and drawers appear without sliding for people who asked their system for less motion.
    respectReducedMotion: true,
    primaryColor: "primary",
    // Darker than the raw theme colour in light mode so white text on buttons stays readable (axe: the
    // default orange at shade 7 gave 3.3:1).
    primaryShade: { light: 8, dark: 6 },
    // 0.179 is where black and white text contrast equally with a colour: choosing by it always gives the
    // better of the two, at least 4.58:1, whatever theme colour an admin picks.
    autoContrast: true,
    luminanceThreshold: 0.179,
    colors: palette,
    fontFamily:
      'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", "Noto Sans", "Liberation Sans", Arial, sans-serif',
    defaultRadius: "md",
    cursorType: "pointer",
    components: MENU_BUTTON_PATTERN,
  });
}

/** A short fingerprint of the theme colours: the version in /theme.css?v=…, the same on server and client. */
export function themeHash(colors: ThemeColors): string {
  const text = JSON.stringify(colors);
  let h = 5381;
  for (let i = 0; i < text.length; i++) h = (Math.imul(h, 33) ^ text.charCodeAt(i)) >>> 0;
  return h.toString(36);
}

/** Where the theme's stylesheet is linked (routes/theme[.]css.ts): immutable at its hash. */
export function themeStylesheetHref(colors: ThemeColors): string {
  return `/theme.css?v=${themeHash(colors)}`;
}
