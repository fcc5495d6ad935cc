/**
 * Mantine's CSS variables for Larder's theme, as a stylesheet (/theme.css). Mantine would otherwise
 * compute them on every render and inline them into every page: ~46 kB of CSS per page for the seven
 * virtual theme colours, rebuilt per request. They depend on the theme colours only, so they are built
 * once per theme and served as a file the browser caches (the page links it with the theme's hash).
 */
import {
  DEFAULT_THEME,
  convertCssVariables,
  defaultCssVariablesResolver,
  mergeMantineTheme,
} from "@mantine/core";
import { buildTheme, type ThemeColors } from "./theme.js";

const cache = new Map<string, string>();

export function themeCss(colors: ThemeColors): string {
  const key = JSON.stringify(colors);
  let css = cache.get(key);
  if (css === undefined) {
    const theme = mergeMantineTheme(DEFAULT_THEME, buildTheme(colors));
    css =
      convertCssVariables(defaultCssVariablesResolver(theme)) +
      convertCssVariables({
        variables: {},
        light: { "--mantine-color-scheme": "light" },
        dark: { "--mantine-color-scheme": "dark" },
      });
    // Themes change by configuration, rarely: a handful of entries at most.
    if (cache.size >= 8) cache.clear();
    cache.set(key, css);
  }
  return css;
}
