/**
 * The client's chunks (vite.config.ts `clientChunks`, decision 0223), read from the UI build's route
 * manifest (`npm run build`): a page loads a few scripts, not the dozens the default split gave, and the
 * group home and a recipe load only the part of the UI kit that they and the shell use (`ui-kit`), not
 * the components only other pages use (`ui-forms`, `ui-numbers`).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { defaultBuildDir } from "../../web/server/server.js";
import { withoutUiBuild } from "../support/ui-build.js";

const assets = join(defaultBuildDir(), "client", "assets");
const skipUi = withoutUiBuild("client-chunks");

interface Manifest {
  entry: { module: string; imports?: string[] };
  routes: Record<string, { id: string; parentId?: string; module: string; imports?: string[] }>;
}

/** The newest `manifest-<hash>.js` (`window.__reactRouterManifest={…}`). */
function manifest(): Manifest {
  const [file] = readdirSync(assets)
    .filter((name) => /^manifest-[^.]+\.js$/.test(name))
    .sort((a, b) => statSync(join(assets, b)).mtimeMs - statSync(join(assets, a)).mtimeMs);
  const text = readFileSync(join(assets, file), "utf8");
  return JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1)) as Manifest;
}

/** The scripts a first load of a route runs: the entry, the route and its parents, and their imports. */
function scripts(m: Manifest, routeId: string): string[] {
  const out = new Set([m.entry.module, ...(m.entry.imports ?? [])]);
  for (let route = m.routes[routeId]; route; route = m.routes[route.parentId ?? ""]) {
    out.add(route.module);
    for (const file of route.imports ?? []) out.add(file);
  }
  return [...out];
}

const chunk = (files: string[], name: string) => files.filter((f) => f.startsWith(`/assets/${name}-`));

describe.skipIf(skipUi)("the client's chunks", () => {
  it.each([
    ["the group home", "routes/g.$groupSlug._index", 14],
    ["a recipe", "routes/g.$groupSlug.r.$slug", 14],
  ])("give %s the UI kit it uses and none of the rest, in at most %i scripts", (_, routeId, most) => {
    const m = manifest();
    expect(Object.keys(m.routes)).toContain(routeId);
    const page = scripts(m, routeId);
    for (const name of ["framework", "app-shell", "ui-kit"]) expect(chunk(page, name), name).toHaveLength(1);
    expect(page.filter((f) => /^\/assets\/ui-(forms|numbers)-/.test(f))).toEqual([]);
    expect(page.length).toBeLessThanOrEqual(most);
  });

  it("give no page more than 18 scripts, three rounds of a browser's six connections", () => {
    const m = manifest();
    const over = Object.keys(m.routes)
      .map((id) => ({ id, scripts: scripts(m, id).length }))
      .filter((page) => page.scripts > 18);
    expect(over).toEqual([]);
  });

  it("build each shared chunk once, and load the rest of the UI kit where a page uses it", () => {
    const js = readdirSync(assets).filter((name) => name.endsWith(".js"));
    for (const name of ["framework", "app-shell", "ui-kit", "ui-forms", "ui-numbers"])
      expect(js.filter((f) => f.startsWith(`${name}-`)).length, name).toBe(1);
    const m = manifest();
    const loaded = new Set(Object.keys(m.routes).flatMap((id) => scripts(m, id)));
    for (const name of ["ui-forms", "ui-numbers"])
      expect(
        [...loaded].some((f) => f.startsWith(`/assets/${name}-`)),
        name,
      ).toBe(true);
  });
});
