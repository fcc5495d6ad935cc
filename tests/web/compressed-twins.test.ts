/**
 * Every text file the client build serves has its brotli and gzip twins (vite.config.ts
 * `precompress`), the files React Router writes outside the client bundle (the route manifest) and
 * the service worker copied from public/ included: web/server/static-files.ts sends a file as it is
 * when it has no twin. Needs the UI build (`npm run build`).
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { extname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { defaultBuildDir } from "../../web/server/server.js";
import { withoutUiBuild } from "../support/ui-build.js";

const client = join(defaultBuildDir(), "client");
const skipUi = withoutUiBuild("compressed-twins");

const TEXT = new Set([".js", ".mjs", ".css", ".svg", ".json", ".txt", ".webmanifest", ".html"]);

function textFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === ".vite") continue;
    if (statSync(path).isDirectory()) out.push(...textFiles(path));
    else if (TEXT.has(extname(name)) && statSync(path).size >= 1024) out.push(path);
  }
  return out;
}

describe.skipIf(skipUi)("the client build", () => {
  it("has a brotli and a gzip twin for every text file of 1 kB or more, the route manifest included", () => {
    const files = textFiles(client);
    expect(files.some((f) => /[\\/]manifest-[^\\/]+\.js$/.test(f))).toBe(true);
    const missing = files
      .filter((f) => !existsSync(`${f}.br`) || !existsSync(`${f}.gz`))
      .map((f) => relative(client, f));
    expect(missing).toEqual([]);
  });

  it("has no twin whose file is gone (Vite's build manifest, which React Router deletes once read)", () => {
    const orphans: string[] = [];
    const visit = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) visit(path);
        else if (/\.(br|gz)$/.test(name) && !existsSync(path.slice(0, -3)))
          orphans.push(relative(client, path));
      }
    };
    visit(client);
    expect(orphans).toEqual([]);
  });
});
