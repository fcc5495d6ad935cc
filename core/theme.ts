/**
 * Theme colours (spec §3 Theme; GET /api/app/about/theme). No Node imports: the web UI shares this file
 * (vite.config.ts PURE_CORE) instead of keeping a copy.
 */
export interface ThemeColors {
  lightPrimary: string;
  lightAccent: string;
  lightSecondary: string;
  lightSuccess: string;
  lightInfo: string;
  lightWarning: string;
  lightError: string;
  darkPrimary: string;
  darkAccent: string;
  darkSecondary: string;
  darkSuccess: string;
  darkInfo: string;
  darkWarning: string;
  darkError: string;
}

/** Mealie's default theme. */
export const THEME_DEFAULTS: Readonly<ThemeColors> = {
  lightPrimary: "#E58325",
  lightAccent: "#007A99",
  lightSecondary: "#973542",
  lightSuccess: "#43A047",
  lightInfo: "#1976D2",
  lightWarning: "#FF6D00",
  lightError: "#EF5350",
  darkPrimary: "#E58325",
  darkAccent: "#007A99",
  darkSecondary: "#973542",
  darkSuccess: "#43A047",
  darkInfo: "#1976D2",
  darkWarning: "#FF6D00",
  darkError: "#EF5350",
};

/** The theme from `THEME_*` settings (`LIGHT_PRIMARY=#…` → lightPrimary); malformed colours are ignored. */
export function themeFromSettings(settings: Readonly<Record<string, string>>): ThemeColors {
  const theme: ThemeColors = { ...THEME_DEFAULTS };
  for (const [k, v] of Object.entries(settings)) {
    const key = k.toLowerCase().replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()) as keyof ThemeColors;
    if (key in theme && /^#[0-9a-f]{3,8}$/i.test(v.trim())) theme[key] = v.trim();
  }
  return theme;
}
