/**
 * The document: Mantine (server-rendered, colour scheme from a cookie, RTL through DirectionProvider),
 * i18next with the request's language, toasts, and the error page for anything a route throws (spec §2).
 */
import { useEffect, useMemo, type ReactNode } from "react";
import type { LinksFunction, MetaFunction } from "react-router";
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  isRouteErrorResponse,
  useRouteError,
  type ShouldRevalidateFunction,
} from "react-router";
import { ColorSchemeScript, DirectionProvider, MantineProvider, mantineHtmlProps } from "@mantine/core";
import { Notifications } from "@mantine/notifications";
import { I18nextProvider } from "react-i18next";
import rootStyles from "./root.css?url";
import { ErrorPage } from "./components/ErrorPage.js";
import { PlainLayout } from "./components/shell/PlainLayout.js";
import { DemoBanner } from "./components/shell/DemoBanner.js";
import { appInfo, themeOf } from "./lib/app-info.server.js";
import { COLOR_SCHEME_COOKIE, cookieColorSchemeManager, parseColorScheme } from "./lib/color-scheme.js";
import { DEFAULT_LANG, catalogueUrl, i18nFor, metaT, useT, type I18nData } from "./lib/i18n.js";
import { detectLanguage, i18nData, languageList } from "./lib/i18n.server.js";
import { getUserActor, readCookie, sessionInfo } from "./lib/session.server.js";
import { THEME_DEFAULTS, buildTheme, themeStylesheetHref, type ThemeColors } from "./lib/theme.js";
import { TOAST_MS } from "./lib/toast.js";
import { useRootData } from "./lib/root-data.js";
import { useNonce } from "./lib/nonce.js";
import { useServiceWorker } from "./lib/pwa.js";
import { useHydrated } from "./lib/use-hydrated.js";
import type { LoaderArgs } from "./lib/context.js";
import { stylesheet, THEME_STYLES } from "./lib/stylesheets.js";
import { STYLES_COOKIE, STYLES_META, stylesIdOf } from "./lib/styles-cookie.js";

/** This build's stylesheets, as the styles cookie names them (decision 0309). */
const STYLES_ID = stylesIdOf(rootStyles);

export async function loader({ request, context }: LoaderArgs) {
  const actor = await getUserActor(request, context);
  const lang = detectLanguage(request);
  const cookies = request.headers.get("Cookie");
  return {
    session: actor ? sessionInfo(context, actor.user) : null,
    // Set for a browser's page load until it says it has this build's stylesheets: the server then
    // inlines them (decision 0309). A script (no Sec-Fetch-Dest) gets the links, and a small page.
    inlineStyles:
      request.headers.get("Sec-Fetch-Dest") === "document" && readCookie(cookies, STYLES_COOKIE) !== STYLES_ID
        ? STYLES_ID
        : null,
    i18n: i18nData(lang),
    languages: languageList(),
    colorScheme: parseColorScheme(readCookie(cookies, COLOR_SCHEME_COOKIE)),
    theme: themeOf(context.larder),
    appInfo: appInfo(context.larder),
  };
}

/** The root data is the same on every page: reload it only when a form may have changed who is signed in. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) =>
  formMethod && formMethod.toUpperCase() !== "GET" ? defaultShouldRevalidate : false;

export const links: LinksFunction = () => [
  stylesheet(rootStyles),
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "manifest", href: "/manifest.webmanifest" },
  { rel: "apple-touch-icon", href: "/icons/apple-touch-icon.png" },
];

export const meta: MetaFunction = ({ matches }) => [{ title: metaT(matches, "common")("appName") }];

const FALLBACK_I18N: I18nData = { lang: DEFAULT_LANG, dir: "ltr", catalogues: {} };

/**
 * The Mantine theme of a set of theme colours (their JSON), built once: a server render's useMemo lasts
 * one request, and every page would build it again. Few sets ever exist (an admin edits the colours).
 */
const themes = new Map<string, ReturnType<typeof buildTheme>>();
function builtTheme(colorsJson: string): ReturnType<typeof buildTheme> {
  let theme = themes.get(colorsJson);
  if (!theme) {
    if (themes.size >= 8) themes.clear();
    themes.set(colorsJson, (theme = buildTheme(JSON.parse(colorsJson) as ThemeColors)));
  }
  return theme;
}

export function Layout({ children }: { children: ReactNode }) {
  const data = useRootData();
  const i18n = data?.i18n ?? FALLBACK_I18N;
  const scheme = data?.colorScheme ?? "auto";
  const themeColors = data?.theme ?? THEME_DEFAULTS;
  const themeKey = JSON.stringify(themeColors);
  const theme = builtTheme(themeKey);
  const manager = useMemo(() => cookieColorSchemeManager(), []);
  const nonce = useNonce();
  return (
    <html
      lang={i18n.lang}
      dir={i18n.dir}
      {...mantineHtmlProps}
      data-mantine-color-scheme={scheme === "dark" ? "dark" : "light"}
    >
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <meta name="theme-color" content="#a63d16" />
        <ColorSchemeScript defaultColorScheme={scheme} nonce={nonce} />
        {data?.inlineStyles ? <meta name={STYLES_META} content={data.inlineStyles} /> : null}
        <Meta />
        <Links />
        {/* After Mantine's styles (root.css), whose defaults these override (lib/theme-css.server.ts). */}
        <link rel="stylesheet" href={themeStylesheetHref(themeColors)} precedence={THEME_STYLES} />
        {/* The catalogues entry.client.tsx loads before hydrating: fetched while the scripts load. */}
        {Object.entries(i18n.catalogues).map(([lang, hash]) => (
          <link
            key={lang}
            rel="preload"
            as="fetch"
            crossOrigin="anonymous"
            href={catalogueUrl(lang, hash)}
            data-catalogue={lang}
          />
        ))}
      </head>
      <body>
        <I18nextProvider i18n={i18nFor(i18n.lang)}>
          <DirectionProvider initialDirection={i18n.dir} detectDirection={false}>
            <MantineProvider
              theme={theme}
              defaultColorScheme={scheme}
              colorSchemeManager={manager}
              getStyleNonce={nonce ? () => nonce : undefined}
              withCssVariables={false}
            >
              <Toasts />
              <HydrationMark />
              <DemoBanner />
              <ServiceWorker />
              {children}
            </MantineProvider>
          </DirectionProvider>
        </I18nextProvider>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

/**
 * Mantine's toast area, mounted once React has hydrated: on the server it renders nothing (its portal
 * waits for the browser) yet ran its hooks on every page. A toast sent before it mounts waits in
 * Mantine's store and shows when it does.
 */
function Toasts() {
  return useHydrated() ? <Notifications autoClose={TOAST_MS} position="bottom-center" limit={4} /> : null;
}

/** Marks <body data-hydrated> once React runs: e2e tests wait for it before using JavaScript controls. */
function HydrationMark() {
  useEffect(() => {
    document.body.dataset.hydrated = "true";
  }, []);
  return null;
}

/** The installable app's worker (lib/pwa.ts, decision 0085). */
function ServiceWorker() {
  useServiceWorker();
  return null;
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const t = useT("common");
  const status = isRouteErrorResponse(error) ? error.status : null;
  if (!isRouteErrorResponse(error) && typeof console !== "undefined") console.error(error);
  return (
    <PlainLayout>
      <title>{status === 404 ? t("errors.pageNotFound") : t("errors.anErrorOccurred")}</title>
      <ErrorPage status={status} />
    </PlainLayout>
  );
}
