/**
 * Browser entry: React Router's default hydration, after the page's i18n catalogues have loaded. They
 * are not in the page's data (decision 0117): the document links each language's (`link[data-catalogue]`,
 * every namespace in one document, preloaded, cached for good by its content hash; decision 0223), and
 * hydration must render the same text as the server.
 */
import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { provideCatalogues, type Catalogue, type Resources } from "./lib/i18n.js";
import { STYLES_COOKIE, STYLES_META } from "./lib/styles-cookie.js";

/**
 * A first visit's page holds its stylesheets inline (decision 0309). Each is linked beside its <style>:
 * the browser caches the file, and React, which renders the link, finds it there as the resource it
 * renders. Once all have loaded the <style>s go (the links apply the same rules, in the same place) and
 * the cookie tells the server that this browser has the build's stylesheets: later pages link them.
 */
function linkInlinedStyles(): void {
  const styles = [...document.querySelectorAll<HTMLStyleElement>("style[data-inline-href]")];
  const build = document.querySelector<HTMLMetaElement>(`meta[name="${STYLES_META}"]`)?.content;
  if (styles.length === 0) return;
  const loads = styles.map((style) => {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = style.dataset.inlineHref!;
    link.dataset.precedence = style.dataset.inlinePrecedence;
    const loaded = new Promise<boolean>((resolve) => {
      link.onload = () => resolve(true);
      link.onerror = () => resolve(false);
    });
    style.after(link);
    return loaded;
  });
  void Promise.all(loads).then((ok) => {
    if (!ok.every(Boolean)) return;
    for (const style of styles) style.remove();
    if (!build) return;
    const secure = location.protocol === "https:" ? "; Secure" : "";
    document.cookie = `${STYLES_COOKIE}=${encodeURIComponent(build)}; Path=/; Max-Age=31536000; SameSite=Lax${secure}`;
  });
}

linkInlinedStyles();

async function fetchCatalogues(url: string): Promise<Record<string, Catalogue> | null> {
  // One retry: a catalogue that does not come leaves keys where the text should be.
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const res = await fetch(url, { credentials: "same-origin" });
      if (res.ok) return (await res.json()) as Record<string, Catalogue>;
    } catch {
      // tried again below
    }
  }
  return null;
}

async function loadCatalogues(): Promise<void> {
  const resources: Resources = {};
  const links = [...document.querySelectorAll<HTMLLinkElement>("link[data-catalogue]")];
  await Promise.all(
    links.map(async (link) => {
      const lang = link.dataset.catalogue;
      const byNamespace = lang ? await fetchCatalogues(link.href) : null;
      if (lang && byNamespace) resources[lang] = byNamespace;
    }),
  );
  provideCatalogues(resources);
}

void loadCatalogues().then(() =>
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <HydratedRouter />
      </StrictMode>,
    );
  }),
);
