/**
 * Summarise a V8 CPU profile (`node --cpu-prof`): self time by function and by file, and total
 * (inclusive) time of selected frames. `npx tsx bench/profile-summary.ts file.cpuprofile [top]`.
 * Used for docs/decisions/0007-performance.md: where start-up time goes, measured, not guessed.
 */
import { readFileSync } from "node:fs";

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface ProfileSummary {
  totalMs: number;
  byFunction: { name: string; selfMs: number }[];
  byFile: { file: string; selfMs: number }[];
  inclusive: { name: string; totalMs: number }[];
}

function shortUrl(url: string): string {
  if (!url) return "(native)";
  const nm = url.lastIndexOf("node_modules/");
  if (nm >= 0) return url.slice(nm + "node_modules/".length);
  const m = /\/(core|web|cli|bench|dist)\/.*$/.exec(url);
  return m ? m[0].slice(1) : url.replace(/^file:\/\//, "");
}

export function summariseProfile(p: Profile, top = 25): ProfileSummary {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // Time per sample: the delta to the next sample (V8's convention).
  const selfUs = new Map<number, number>();
  for (let i = 0; i < p.samples.length; i++) {
    const dt = p.timeDeltas[i + 1] ?? 0;
    selfUs.set(p.samples[i], (selfUs.get(p.samples[i]) ?? 0) + dt);
  }
  const fn = new Map<string, number>();
  const file = new Map<string, number>();
  const incl = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const n = byId.get(id)!;
    const name = `${n.callFrame.functionName || "(anonymous)"} ${shortUrl(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
    fn.set(name, (fn.get(name) ?? 0) + us);
    const f = shortUrl(n.callFrame.url);
    file.set(f, (file.get(f) ?? 0) + us);
    // Inclusive: every distinct frame name on the stack gets the sample once.
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const c = byId.get(cur)!;
      const key = `${c.callFrame.functionName || "(anonymous)"} ${shortUrl(c.callFrame.url)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      incl.set(key, (incl.get(key) ?? 0) + us);
    }
  }
  const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).slice(0, top);
  return {
    totalMs: (p.endTime - p.startTime) / 1000,
    byFunction: sorted(fn).map(([name, us]) => ({ name, selfMs: us / 1000 })),
    byFile: sorted(file).map(([f, us]) => ({ file: f, selfMs: us / 1000 })),
    inclusive: sorted(incl).map(([name, us]) => ({ name, totalMs: us / 1000 })),
  };
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split("/").pop() ?? "")) {
  const [path, top] = process.argv.slice(2);
  const s = summariseProfile(JSON.parse(readFileSync(path, "utf8")) as Profile, Number(top ?? 25));
  console.log(`total ${s.totalMs.toFixed(0)} ms\n\nself time by function:`);
  for (const x of s.byFunction) console.log(`${x.selfMs.toFixed(1).padStart(9)} ms  ${x.name}`);
  console.log("\nself time by file:");
  for (const x of s.byFile) console.log(`${x.selfMs.toFixed(1).padStart(9)} ms  ${x.file}`);
  console.log("\ninclusive:");
  for (const x of s.inclusive) console.log(`${x.totalMs.toFixed(1).padStart(9)} ms  ${x.name}`);
}
