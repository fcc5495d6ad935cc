/**
 * The parts of /api/app/about and /api/app/about/theme the UI needs, computed from `context.larder`.
 * web/api/routes/app.ts (`themeOf`, `appInfo`) is the source of truth, but it imports core at run time
 * (OIDC settings need jose), which the UI bundle must not (decision 0006). So this mirrors the few fields
 * the UI reads; app-info.test.ts checks that both answer the same.
 */
import type { AppLoadContext } from "react-router";
import { themeFromSettings, type ThemeColors } from "./pure-core.js";
import { LARDER_VERSION, MEALIE_API_VERSION } from "../../api/version.js";

type Larder = AppLoadContext["larder"];

/** THEME_LIGHT_PRIMARY=#… → lightPrimary, as GET /api/app/about/theme answers. */
export function themeOf(larder: Larder): ThemeColors {
  return themeFromSettings(larder.config.theme);
}

/** The app info the screens read (spec §3 App info, plus the login page's switches). */
export interface UiAppInfo {
  /** The Mealie API version (what the demo banner shows) and Larder's own. */
  version: string;
  larderVersion: string;
  demoStatus: boolean;
  allowSignup: boolean;
  allowPasswordLogin: boolean;
  enableOidc: boolean;
  oidcRedirect: boolean;
  oidcProviderName: string;
  enableOpenaiImageServices: boolean;
}

const TRUE = /^(1|true|yes|on)$/i;

export function appInfo(larder: Larder): UiAppInfo {
  const c = larder.config;
  const o = c.oidc;
  const get = (k: string) => (o[k] ?? "").trim() || null;
  // Same rule as core/auth/oidc-claims.ts oidcSettings(): enabled, with a discovery URL and a client id.
  const enableOidc = TRUE.test(o.AUTH_ENABLED ?? "") && !!get("CONFIGURATION_URL") && !!get("CLIENT_ID");
  return {
    version: MEALIE_API_VERSION,
    larderVersion: LARDER_VERSION,
    demoStatus: c.demo,
    allowSignup: c.allowSignup,
    allowPasswordLogin: c.allowPasswordLogin,
    enableOidc,
    oidcRedirect: enableOidc && TRUE.test(o.AUTO_REDIRECT ?? ""),
    oidcProviderName: enableOidc ? (get("PROVIDER_NAME") ?? "OAuth") : "OAuth",
    enableOpenaiImageServices: larder.imports.imageServicesEnabled(),
  };
}
