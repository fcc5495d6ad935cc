/**
 * `npm run bench -- --profile`: one cold and one warm start of the largest folder under
 * `node --cpu-prof`, summarised (bench/profile-summary.ts) into bench/profiles/. This is where
 * docs/decisions/0007-performance.md takes "where the time goes" from.
 */
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { summariseProfile } from "./profile-summary.js";
import { dropIndexCache, startLarder } from "./server.js";

export interface ProfileRun {
  kind: "cold" | "warm";
  firstListMs: number;
  firstSearchMs: number;
  indexLog: string | null;
  summaryFile: string;
}

export async function profileStarts(
  root: string,
  dataDir: string,
  apiToken: string,
  recipes: number,
): Promise<ProfileRun[]> {
  const outDir = join(root, "bench", "profiles");
  await mkdir(outDir, { recursive: true });
  const runs: ProfileRun[] = [];
  for (const kind of ["cold", "warm"] as const) {
    const dir = join(dataDir, "..", `cpuprof-${kind}`);
    await rm(dir, { recursive: true, force: true });
    if (kind === "cold") await dropIndexCache(dataDir);
    const server = await startLarder({
      root,
      dataDir,
      apiToken,
      searchTerm: "chicken",
      nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${dir}`],
    });
    await server.stop();
    const files = (await readdir(dir)).filter((f) => f.endsWith(".cpuprofile"));
    if (files.length === 0) throw new Error(`bench: no CPU profile written in ${dir}`);
    const s = summariseProfile(JSON.parse(await readFile(join(dir, files[0]), "utf8")), 30);
    const lines = [
      `# ${kind} start, ${recipes} recipes: larder serve under node --cpu-prof`,
      `# spawn → first list ${Math.round(server.times.firstListMs)} ms, → first search ${Math.round(server.times.firstSearchMs)} ms; ${server.times.indexLog ?? ""}`,
      `# profile covers the whole process (start, first requests, shutdown): ${Math.round(s.totalMs)} ms`,
      "",
      "inclusive time (a frame counted once per sample):",
      ...s.inclusive.map((x) => `${x.totalMs.toFixed(0).padStart(7)} ms  ${x.name}`),
      "",
      "self time by function:",
      ...s.byFunction.map((x) => `${x.selfMs.toFixed(0).padStart(7)} ms  ${x.name}`),
      "",
      "self time by file:",
      ...s.byFile.map((x) => `${x.selfMs.toFixed(0).padStart(7)} ms  ${x.file}`),
      "",
    ];
    const summaryFile = join("bench", "profiles", `${kind}-start-${recipes}.txt`);
    await writeFile(join(root, summaryFile), lines.join("\n"));
    runs.push({
      kind,
      firstListMs: server.times.firstListMs,
      firstSearchMs: server.times.firstSearchMs,
      indexLog: server.times.indexLog,
      summaryFile,
    });
  }
  return runs;
}
