/** /api/app: about, startup info, theme (public). */
import { route } from "../router.js";
import { Reply } from "../reply.js";
import type { Larder } from "../../../core/larder.js";
import { oidcSettings } from "../../../core/auth/oidc-claims.js";

/** The Mealie API version Larder implements: clients gate features on it (ARCHITECTURE §8). */
export const MEALIE_API_VERSION = "v3.19.2";
export const LARDER_VERSION = "0.1.0";

const THEME_DEFAULTS = {
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

/** THEME_LIGHT_PRIMARY → lightPrimary, as Mealie names them. */
export function themeOf(larder: Larder): typeof THEME_DEFAULTS {
  const theme = { ...THEME_DEFAULTS };
  for (const [k, v] of Object.entries(larder.config.theme)) {
    const key = k
      .toLowerCase()
      .replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()) as keyof typeof THEME_DEFAULTS;
    if (key in theme && /^#[0-9a-f]{3,8}$/i.test(v.trim())) theme[key] = v.trim();
  }
  return theme;
}

export function appInfo(larder: Larder): Record<string, unknown> {
  const c = larder.config;
  const oidc = oidcSettings(c);
  const defaultGroup =
    larder.groups.bySlugOrNull(larder.site.data.defaultGroup) ?? larder.groups.all()[0] ?? null;
  const groupPublic = defaultGroup && !defaultGroup.doc.data.preferences.privateGroup;
  const household = defaultGroup ? [...defaultGroup.households.values()][0] : undefined;
  return {
    production: c.production,
    version: MEALIE_API_VERSION,
    larderVersion: LARDER_VERSION,
    demoStatus: c.demo,
    allowSignup: c.allowSignup,
    allowPasswordLogin: c.allowPasswordLogin,
    defaultGroupSlug: groupPublic ? defaultGroup.slug : null,
    defaultHouseholdSlug:
      groupPublic && household && !household.doc.data.preferences.privateHousehold ? household.slug : null,
    enableOidc: oidc !== null,
    oidcRedirect: oidc?.autoRedirect ?? false,
    oidcProviderName: oidc?.providerName ?? "OAuth",
    tokenTime: c.tokenTimeHours,
    enableOpenai: false,
    enableOpenaiImageServices: false,
  };
}

export const appRoutes = [
  route("GET", "/api/app/about", "public", (ctx) => appInfo(ctx.larder)),
  route("GET", "/api/app/about/startup-info", "public", async (ctx) => ({
    isFirstLogin: await ctx.larder.auth.isFirstLogin(),
    isDemo: ctx.larder.config.demo,
  })),
  route("GET", "/api/app/about/theme", "public", (ctx) =>
    Reply.json(200, themeOf(ctx.larder), { "Cache-Control": "public, max-age=604800" }),
  ),
];
