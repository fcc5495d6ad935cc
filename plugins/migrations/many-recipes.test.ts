/**
 * Exports of thousands of recipes: each recipe's picture is found from an index of the archive built
 * once, never by a walk over every entry per recipe (that made a 4,000-recipe Mealie export take a
 * minute and a half). Checked by counting the walks, which does not depend on the machine's speed.
 */
import { describe, expect, it } from "vitest";
import type { MigratedEntry } from "../../core/plugins/kinds.js";
import { makeZip, type ZipSpec } from "../../tests/support/zip-writer.js";
import { readChowdown } from "./chowdown/read.js";
import { readMealieAlpha } from "./mealie-alpha/read.js";
import { type Archive, openZip } from "./shared/archive.js";

const N = 40;

/** The archive, counting how often a reader asks for the whole list of its entries. */
function counted(archive: Archive): { archive: Archive; walks: () => number } {
  let walks = 0;
  const view: Archive = {
    get entries() {
      walks++;
      return archive.entries;
    },
    skipped: archive.skipped,
    has: (p) => archive.has(p),
    read: (p, m) => archive.read(p, m),
    readText: (p, m) => archive.readText(p, m),
    close: () => archive.close(),
  };
  return { archive: view, walks: () => walks };
}

async function readAll(entries: AsyncIterable<MigratedEntry>): Promise<MigratedEntry[]> {
  const out: MigratedEntry[] = [];
  for await (const e of entries) out.push(e);
  return out;
}

describe("many recipes, each with its picture", () => {
  it("mealie_alpha: the entries are walked a fixed number of times, not once per recipe", async () => {
    const specs: ZipSpec[] = [];
    for (let i = 0; i < N; i++) {
      specs.push({
        name: `recipes/r${i}/r${i}.json`,
        data: JSON.stringify({ name: `R ${i}`, slug: `r${i}` }),
      });
      for (const p of ["original", "min-original", "tiny-original"])
        specs.push({ name: `recipes/r${i}/images/${p}.webp`, data: `${p}${i}` });
    }
    const { archive, walks } = counted(await openZip(makeZip(specs)));
    const got = await readAll(readMealieAlpha(archive));
    expect(got.filter((e) => e.ok && e.imported.image)).toHaveLength(N);
    const last = got[N - 1] as Extract<MigratedEntry, { ok: true }>;
    expect(String((last.imported.image as { bytes: Buffer }).bytes)).toBe(`original${N - 1}`);
    expect(walks()).toBeLessThan(5);
  });

  it("chowdown: the same, with pictures named by front matter", async () => {
    const specs: ZipSpec[] = [];
    for (let i = 0; i < N; i++) {
      specs.push({ name: `_recipes/r${i}.md`, data: `---\ntitle: R ${i}\nimage: r${i}.jpg\n---\n` });
      specs.push({ name: `images/r${i}.jpg`, data: `pic${i}` });
    }
    const { archive, walks } = counted(await openZip(makeZip(specs)));
    const got = await readAll(readChowdown(archive));
    expect(got.filter((e) => e.ok && e.imported.image)).toHaveLength(N);
    expect(walks()).toBeLessThan(5);
  });
});
