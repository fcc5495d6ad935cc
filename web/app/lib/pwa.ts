/**
 * The installable app (decision 0085): registers /sw.js (public/sw.js) from our own module, so the
 * page's Content-Security-Policy needs nothing new (worker-src falls back to script-src 'self'), and
 * asks the worker to keep this page and the files it loaded, so the shopping list and the recipes
 * opened recently open again without a network.
 */
import { useEffect } from "react";
import { useLocation } from "react-router";
import { forgetShoppingData } from "./shopping/store.js";

/** Pages worth keeping whole for offline use (their route data is kept as it is fetched anyway). */
const KEEP_PAGE = /^\/(shopping-lists(\/|$)|g\/[^/]+\/?$|g\/[^/]+\/r\/[^/]+$)/;

function loadedFiles(): string[] {
  const here = location.origin;
  const names = performance.getEntriesByType("resource").map((e) => e.name);
  for (const el of document.querySelectorAll<HTMLLinkElement | HTMLScriptElement>(
    "link[rel=stylesheet][href], link[rel=modulepreload][href], link[rel=manifest][href], script[src]",
  ))
    names.push("href" in el ? el.href : el.src);
  return [
    ...new Set(
      names.filter((n) => {
        if (!n.startsWith(here)) return false;
        const p = new URL(n).pathname;
        return (
          p.startsWith("/assets/") ||
          p.startsWith("/icons/") ||
          /^\/locales\/[^/]+\/catalogues\.json$/.test(p) ||
          /^\/(theme\.css|favicon\.svg|manifest\.webmanifest)$/.test(p)
        );
      }),
    ),
  ];
}

/**
 * Asks the worker to keep what it does not have yet. Documents are kept by their path alone (a recipe
 * in edit mode is the recipe); once kept, the worker refreshes them itself on each visit (network first),
 * so a page is never rendered twice for this.
 */
function warm(urls: string[]): void {
  const sw = navigator.serviceWorker?.controller;
  if (sw && urls.length) sw.postMessage({ type: "warm", urls });
}
const keptDocument = (pathname: string): string[] =>
  KEEP_PAGE.test(pathname) ? [location.origin + pathname] : [];

/** The worker is installed the first time a shopping list is opened; from then on it runs everywhere. */
const INSTALL_ON = /^\/shopping-lists(\/|$)/;

/** Mounted once in the root layout. */
export function useServiceWorker(): void {
  const { pathname } = useLocation();
  useEffect(() => {
    if (!import.meta.env.PROD || !("serviceWorker" in navigator) || !window.isSecureContext) return;
    const sw = navigator.serviceWorker;
    const installed = INSTALL_ON.test(pathname)
      ? sw.register("/sw.js", { scope: "/" })
      : sw.getRegistration("/").then((r) => r ?? Promise.reject(new Error("not installed")));
    installed
      .then(() => navigator.serviceWorker.ready)
      .then(() => {
        const send = () => warm([...loadedFiles(), ...keptDocument(location.pathname)]);
        if (navigator.serviceWorker.controller) send();
        else navigator.serviceWorker.addEventListener("controllerchange", send, { once: true });
      })
      .catch(() => {
        // No worker (not installed yet, private mode, an old browser): the app works, only not offline.
      });
    // Runs again when a shopping list is first reached inside the app.
  }, [INSTALL_ON.test(pathname)]);
  useEffect(() => {
    // Offline, a link inside the app loads its page as a document, which the worker answers from what
    // it kept; a client-side navigation would need route data that may never have been fetched.
    const onClick = (e: MouseEvent) => {
      if (navigator.onLine || !navigator.serviceWorker?.controller) return;
      if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
      const a = e.target instanceof Element ? e.target.closest("a[href]") : null;
      if (
        !(a instanceof HTMLAnchorElement) ||
        (a.target && a.target !== "_self") ||
        a.hasAttribute("download")
      )
        return;
      const url = new URL(a.href);
      if (url.origin !== location.origin || url.pathname.startsWith("/api/")) return;
      e.preventDefault();
      e.stopPropagation();
      location.assign(url.href);
    };
    // Signing out forgets the shopping lists kept in this browser (the worker forgets its pages).
    const onSubmit = (e: SubmitEvent) => {
      const form = e.target instanceof HTMLFormElement ? e.target : null;
      if (form && new URL(form.action, location.href).pathname === "/logout") forgetShoppingData();
    };
    window.addEventListener("click", onClick, true);
    window.addEventListener("submit", onSubmit, true);
    return () => {
      window.removeEventListener("click", onClick, true);
      window.removeEventListener("submit", onSubmit, true);
    };
  }, []);
  useEffect(() => {
    // A page reached inside the app: keep its document too, and any chunk it loaded lazily.
    if (typeof navigator === "undefined" || !navigator.serviceWorker?.controller) return;
    warm([...loadedFiles(), ...keptDocument(pathname)]);
  }, [pathname]);
}
