import { readFileSync, readdirSync } from "node:fs";
const [dir, target, depthS, minS] = process.argv.slice(2);
const f = readdirSync(dir).find((x) => x.endsWith(".cpuprofile"))!;
const p = JSON.parse(readFileSync(`${dir}/${f}`, "utf8"));
const byId = new Map<number, any>(p.nodes.map((n: any) => [n.id, n]));
const self = new Map<number, number>();
const dts: number[] = []; for (let i = 0; i < p.samples.length; i++) dts.push(p.timeDeltas[i + 1] ?? 0);
for (let i = 0; i < p.samples.length; i++) self.set(p.samples[i], (self.get(p.samples[i]) ?? 0) + dts[i]);
const name = (n: any) => `${n.callFrame.functionName || "(anon)"} ${n.callFrame.url.replace(/.*\//, "")}:${n.callFrame.lineNumber}`;
const total = (n: any): number => (self.get(n.id) ?? 0) + (n.children ?? []).reduce((s: number, c: number) => s + total(byId.get(c)), 0);
const min = Number(minS ?? 5) * 1000;
const print = (n: any, d: number, ind: string) => {
  const t = total(n); if (t < min) return;
  console.log(`${ind}${(t / 1000).toFixed(0)} ${name(n)}`);
  if (d > 0) for (const c of (n.children ?? []).map((c: number) => byId.get(c)).sort((a: any, b: any) => total(b) - total(a))) print(c, d - 1, ind + "  ");
};
for (const n of p.nodes) if (name(n).startsWith(target + " ")) print(n, Number(depthS ?? 4), "");
