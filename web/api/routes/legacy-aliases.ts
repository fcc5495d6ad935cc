/**
 * Paths of Mealie v1.x that popular clients still call (Mealient's v1 mode), answered by the current
 * handlers: shopping lists, items and meal plans lived under /api/groups before households took them, and
 * "create from URL" was /api/recipes/create-url. Thin aliases only: same handler, same permissions.
 */
import type { RouteDef } from "../router.js";

const RENAMES: Array<[method: string | null, from: string, to: string]> = [
  [null, "/api/households/shopping/", "/api/groups/shopping/"],
  // Mealie 1.x planned meals per group; its clients (Home Assistant's integration among them) still do.
  [null, "/api/households/mealplans", "/api/groups/mealplans"],
  [null, "/api/households/mealplans/", "/api/groups/mealplans/"],
  ["POST", "/api/recipes/create/url", "/api/recipes/create-url"],
];

/** The alias of each route a rename covers (`from` is a prefix ending in "/", else the whole path). */
export function legacyAliases(routes: readonly RouteDef[]): RouteDef[] {
  const out: RouteDef[] = [];
  for (const r of routes) {
    for (const [method, from, to] of RENAMES) {
      if (method && r.method !== method) continue;
      const hit = from.endsWith("/") ? r.path.startsWith(from) : r.path === from;
      if (hit) out.push({ ...r, path: to + r.path.slice(from.length) });
    }
  }
  return out;
}
