/**
 * GET /locales/:lang/catalogues.json?v=<hash>: a language's i18n catalogues, `{ namespace: catalogue }`
 * (decisions 0117, 0223). Pages link the languages they need by content hash, so a browser keeps each
 * for good and a new build's changed text has a new address; asked without the current hash, it is
 * served but revalidated every time.
 */
import { servedCatalogues } from "../lib/i18n.server.js";
import type { LoaderArgs } from "../lib/context.js";

export function loader({ params, request }: LoaderArgs) {
  const served = servedCatalogues(params.lang ?? "");
  if (!served) throw new Response("Not Found", { status: 404 });
  const current = new URL(request.url).searchParams.get("v") === served.hash;
  const etag = `"${served.hash}"`;
  const headers = {
    "Content-Type": "application/json; charset=utf-8",
    "Cache-Control": current ? "public, max-age=31536000, immutable" : "public, no-cache",
    ETag: etag,
  };
  if (request.headers.get("If-None-Match") === etag) return new Response(null, { status: 304, headers });
  return new Response(served.json, { headers });
}
