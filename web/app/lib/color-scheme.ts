/**
 * Dark/light (spec §4: "Theme toggles dark/light"). The choice lives in the `mantine-color-scheme` cookie
 * rather than localStorage, so the server renders the right `data-mantine-color-scheme` and the first
 * paint has the right colours, with or without JavaScript. "auto" follows the OS (resolved before paint by
 * Mantine's ColorSchemeScript).
 */
import type { MantineColorScheme, MantineColorSchemeManager } from "@mantine/core";

export const COLOR_SCHEME_COOKIE = "mantine-color-scheme";

export function parseColorScheme(value: string | null | undefined): MantineColorScheme {
  return value === "light" || value === "dark" || value === "auto" ? value : "auto";
}

function readBrowserCookie(): string | null {
  const m = new RegExp(`(?:^|;\\s*)${COLOR_SCHEME_COOKIE}=([^;]*)`).exec(document.cookie);
  return m ? decodeURIComponent(m[1]) : null;
}

/** Mantine's colour-scheme manager backed by the cookie. */
export function cookieColorSchemeManager(): MantineColorSchemeManager {
  return {
    get: (defaultValue) =>
      typeof document === "undefined" ? defaultValue : parseColorScheme(readBrowserCookie() ?? defaultValue),
    set: (value) => {
      document.cookie = `${COLOR_SCHEME_COOKIE}=${value}; Path=/; SameSite=Lax; Max-Age=${365 * 24 * 3600}`;
    },
    subscribe: () => {},
    unsubscribe: () => {},
    clear: () => {
      document.cookie = `${COLOR_SCHEME_COOKIE}=; Path=/; Max-Age=0`;
    },
  };
}
