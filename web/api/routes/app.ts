/** /api/app: about, startup info, theme (public). */
import { route } from "../router.js";
import { Reply } from "../reply.js";
import type { Larder } from "../../../core/larder.js";
import { themeFromSettings, type ThemeColors } from "../../../core/theme.js";
import { oidcSettings } from "../../../core/auth/oidc-claims.js";
import { openAISettings } from "../../../core/ai/openai-client.js";
import { openAIImageServices } from "../../../core/ai/ai-endpoint.js";

import { LARDER_VERSION, MEALIE_API_VERSION } from "../version.js";

export { LARDER_VERSION, MEALIE_API_VERSION };

/** THEME_LIGHT_PRIMARY → lightPrimary, as Mealie names them. */
export function themeOf(larder: Larder): ThemeColors {
  return themeFromSettings(larder.config.theme);
}

export function appInfo(larder: Larder): Record<string, unknown> {
  const c = larder.config;
  const oidc = oidcSettings(c);
  const ai = openAISettings(c.openai);
  const defaultGroup = larder.directory.defaultGroup()?.group ?? null;
  const groupPublic = defaultGroup && !defaultGroup.preferences.privateGroup;
  const household = defaultGroup ? larder.directory.householdsOf(defaultGroup.id)[0] : undefined;
  return {
    production: c.production,
    version: MEALIE_API_VERSION,
    larderVersion: LARDER_VERSION,
    demoStatus: c.demo,
    allowSignup: c.allowSignup,
    allowPasswordLogin: c.allowPasswordLogin,
    defaultGroupSlug: groupPublic ? defaultGroup.slug : null,
    defaultHouseholdSlug:
      groupPublic && household && !household.preferences.privateHousehold ? household.slug : null,
    enableOidc: oidc !== null,
    oidcRedirect: oidc?.autoRedirect ?? false,
    oidcProviderName: oidc?.providerName ?? "OAuth",
    tokenTime: c.tokenTimeHours,
    enableOpenai: ai !== null,
    enableOpenaiImageServices: openAIImageServices(c),
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
