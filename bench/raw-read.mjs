// The floor for a cold start (bench/run.ts): a node process that lists every recipe file and reads its
// bytes, with no parsing. Plain JS, no loader, synchronous reads (the fastest way to read many small
// files from the page cache), so nothing but node's own start and the reads is on the clock.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const t0 = performance.now();
const groups = join(process.argv[2], "groups");
let files = 0;
let bytes = 0;
for (const g of readdirSync(groups, { withFileTypes: true })) {
  if (!g.isDirectory()) continue;
  const dir = join(groups, g.name, "recipes");
  for (const f of readdirSync(dir, { withFileTypes: true })) {
    if (!f.isFile() || !f.name.endsWith(".md")) continue;
    bytes += readFileSync(join(dir, f.name)).length;
    files++;
  }
}
process.stdout.write(JSON.stringify({ files, bytes, readMs: performance.now() - t0 }));
