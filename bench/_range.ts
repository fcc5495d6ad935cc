import { readFileSync, readdirSync } from "node:fs";
const dir = process.argv[2];
const fromMs = Number(process.argv[3]); const toMs = Number(process.argv[6]);
const f = readdirSync(dir).find((x) => x.endsWith(".cpuprofile"))!;
const p = JSON.parse(readFileSync(`${dir}/${f}`, "utf8"));
const byId = new Map<number, any>(p.nodes.map((n: any) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const times: number[] = []; let t = p.startTime;
for (const d of p.timeDeltas) { t += d; times.push(t); }
const cut = p.startTime + fromMs * 1e3; const cutEnd = p.startTime + toMs * 1e3;
const self = new Map<string, number>(), incl = new Map<string, number>();
let total = 0;
for (let i = 0; i < p.samples.length; i++) {
  if (times[i] < cut || times[i] > cutEnd) continue;
  const dt = (times[i + 1] ?? p.endTime) - times[i];
  total += dt;
  let n = byId.get(p.samples[i]);
  const name = (n: any) => `${n.callFrame.functionName || "(anon)"} ${n.callFrame.url.replace(/.*\//, "")}:${n.callFrame.lineNumber}`;
  self.set(name(n), (self.get(name(n)) ?? 0) + dt);
  const seen = new Set<string>();
  while (n) { const k = name(n); if (!seen.has(k)) { seen.add(k); incl.set(k, (incl.get(k) ?? 0) + dt); } n = byId.get(parent.get(n.id)!); }
}
console.log("window ms", (total / 1000).toFixed(0));
const top = (m: Map<string, number>, k: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, k).map(([n, v]) => `${(v / 1000).toFixed(0).padStart(7)} ${n}`).join("\n");
console.log("== self\n" + top(self, Number(process.argv[4] ?? 40)));
console.log("== inclusive\n" + top(incl, Number(process.argv[5] ?? 80)));
