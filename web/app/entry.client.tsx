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
