import { readFileSync, readdirSync } from "node:fs";
const dir = process.argv[2];
const f = readdirSync(dir).find((x) => x.endsWith(".cpuprofile"))!;
const p = JSON.parse(readFileSync(`${dir}/${f}`, "utf8"));
const byId = new Map<number, any>(p.nodes.map((n: any) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const names = process.argv.slice(3);
const first = new Map<string, number>(), last = new Map<string, number>(), sum = new Map<string, number>();
let t = p.startTime;
for (let i = 0; i < p.samples.length; i++) {
  t += p.timeDeltas[i];
  const dt = p.timeDeltas[i + 1] ?? 0;
  const seen = new Set<string>();
  for (let n = byId.get(p.samples[i]); n; n = byId.get(parent.get(n.id)!)) {
    const fn = n.callFrame.functionName;
    for (const k of names) if (fn === k && !seen.has(k)) { seen.add(k); if (!first.has(k)) first.set(k, t); last.set(k, t); sum.set(k, (sum.get(k) ?? 0) + dt); }
  }
}
for (const k of names) if (first.has(k)) console.log(k.padEnd(22), "from", ((first.get(k)! - p.startTime) / 1000).toFixed(0).padStart(5), "to", ((last.get(k)! - p.startTime) / 1000).toFixed(0).padStart(5), "cpu", (sum.get(k)! / 1000).toFixed(0));
console.log("profile", ((p.endTime - p.startTime) / 1000).toFixed(0));
