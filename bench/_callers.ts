import { readFileSync, readdirSync } from "node:fs";
const [dir, target, depthS] = process.argv.slice(2);
const depth = Number(depthS ?? 3);
const f = readdirSync(dir).find((x) => x.endsWith(".cpuprofile"))!;
const p = JSON.parse(readFileSync(`${dir}/${f}`, "utf8"));
const byId = new Map<number, any>(p.nodes.map((n: any) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const times: number[] = []; let t = p.startTime;
for (const d of p.timeDeltas) { t += d; times.push(t); }
const cut = p.endTime - 31e6;
const name = (n: any) => `${n.callFrame.functionName || "(anon)"} ${n.callFrame.url.replace(/.*\//, "")}:${n.callFrame.lineNumber}`;
const agg = new Map<string, number>();
for (let i = 0; i < p.samples.length; i++) {
  if (times[i] < cut) continue;
  const dt = (times[i + 1] ?? p.endTime) - times[i];
  let n = byId.get(p.samples[i]);
  while (n && !name(n).startsWith(target + " ")) n = byId.get(parent.get(n.id)!);
  if (!n) continue;
  const chain: string[] = [];
  let m = byId.get(parent.get(n.id)!);
  for (let d = 0; d < depth && m; d++) { chain.push(name(m)); m = byId.get(parent.get(m.id)!); }
  const k = chain.join(" < ");
  agg.set(k, (agg.get(k) ?? 0) + dt);
}
for (const [k, v] of [...agg].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log((v / 1000).toFixed(0).padStart(6), k);
