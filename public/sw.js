/**
 * Larder's service worker (decision 0085), served at /sw.js so its scope is the whole app.
 *
 * - Built assets (/assets/*, fingerprinted, immutable) and the i18n catalogues (addressed by content
 *   hash; a page hydrates only once its language's text is in): cache first.
 * - Kept pages, their route data (*.data, /__manifest), the theme, icons and recipe images: network
 *   first, the copy kept for when the network is gone (bounded: the oldest go first).
 * - Only the shopping lists, the group home and recipe pages are kept (other screens go to the network
 *   alone); /api (other than media), non-GET requests and other origins are not touched. The shopping
 *   list's own queue (web/app/lib/shopping/store.ts) handles writes made offline.
 * - Signing out or in (/logout, /login) forgets every kept page: they carry the signed-in user's data.
 * - The page asks it to keep the document and the files it loaded before the worker took over
 *   (message "warm"), so the first page opened already works offline.
 */
const VERSION = "larder-1";
const PAGES = `${VERSION}-pages`;
const ASSETS = `${VERSION}-assets`;
const MAX_PAGES = 80;
const MAX_ASSETS = 400;
const NETWORK_TIMEOUT_MS = 6000;

self.addEventListener("install", () => {
  self.skipWaiting();
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const key of await caches.keys()) if (!key.startsWith(`${VERSION}-`)) await caches.delete(key);
      await self.clients.claim();
    })(),
  );
});

/**
 * Pages kept for offline use: the shopping lists, the group home and recipe pages, with their route
 * data (`<path>.data`). Other pages (admin, settings) are never stored: they go to the network alone.
 */
const KEPT_PAGE = /^\/(shopping-lists(\/[^/]+)?|g\/[^/]+|g\/[^/]+\/r\/[^/]+)(\.data)?\/?$/;
const KEPT_FILE =
  /^\/(__manifest|theme\.css|favicon\.svg|manifest\.webmanifest|icons\/[^/]+|api\/media\/.+)$/;

const CATALOGUES = /^\/locales\/[^/]+\/catalogues\.json$/;

/** Which cache a request belongs to, or null when the worker leaves it alone. */
function kindOf(request) {
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return null;
  const p = url.pathname;
  // Signing out or in: every kept page carries the previous user's data.
  if (/^\/(logout|login)(\.data)?$/.test(p)) return "forget";
  if (request.method !== "GET") return null;
  if (p.startsWith("/assets/") || CATALOGUES.test(p)) return "asset";
  if (KEPT_PAGE.test(p) || KEPT_FILE.test(p)) return "page";
  return null;
}

async function trim(name, max) {
  const cache = await caches.open(name);
  const keys = await cache.keys();
  for (const k of keys.slice(0, Math.max(0, keys.length - max))) await cache.delete(k);
}

async function keep(name, request, response, max) {
  if (!response || !response.ok || response.type !== "basic") return;
  const cache = await caches.open(name);
  // Re-inserted so the most recently seen pages are the last to be trimmed.
  await cache.delete(request, { ignoreVary: true });
  await cache.put(request, response);
  await trim(name, max);
}

async function assetFirst(event) {
  const cache = await caches.open(ASSETS);
  const hit = await cache.match(event.request);
  if (hit) return hit;
  const res = await fetch(event.request);
  event.waitUntil(keep(ASSETS, event.request, res.clone(), MAX_ASSETS));
  return res;
}

function withTimeout(promise, ms) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("timeout")), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

async function networkFirst(event) {
  const request = event.request;
  try {
    const res = await withTimeout(fetch(request), NETWORK_TIMEOUT_MS);
    event.waitUntil(keep(PAGES, request, res.clone(), MAX_PAGES));
    return res;
  } catch (err) {
    const cache = await caches.open(PAGES);
    const hit = await cache.match(request, { ignoreVary: true });
    if (hit) return hit;
    if (request.mode === "navigate") {
      return new Response(
        "<!doctype html><meta charset=utf-8><meta name=viewport content='width=device-width'>" +
          "<title>Offline</title><p style='font:16px system-ui;padding:2rem'>" +
          "You are offline and this page was not opened on this device before.</p>",
        { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } },
      );
    }
    throw err;
  }
}

self.addEventListener("fetch", (event) => {
  const kind = kindOf(event.request);
  if (kind === null) return;
  if (kind === "forget") {
    event.waitUntil(caches.delete(PAGES));
    return;
  }
  event.respondWith(kind === "asset" ? assetFirst(event) : networkFirst(event));
});

self.addEventListener("message", (event) => {
  const data = event.data;
  if (!data || data.type !== "warm" || !Array.isArray(data.urls)) return;
  const jobs = [...new Set(data.urls)].slice(0, 200).map(async (u) => {
    try {
      const request = new Request(new URL(u, self.location.origin).href, { credentials: "same-origin" });
      const kind = kindOf(request);
      if (kind !== "asset" && kind !== "page") return;
      const name = kind === "asset" ? ASSETS : PAGES;
      if (await (await caches.open(name)).match(request, { ignoreVary: true })) return;
      const res = await fetch(request);
      await keep(name, request, res, kind === "asset" ? MAX_ASSETS : MAX_PAGES);
    } catch {
      // Offline or gone: it will be kept the next time it loads.
    }
  });
  event.waitUntil(Promise.all(jobs).then(() => event.source && event.source.postMessage({ type: "warmed" })));
});
