/**
 * The benchmarks write their figures into tracked files (BENCHMARKS.md, bench/*.json), which CI's format
 * check reads: written through Prettier with the repository's settings, a fresh run is committed as is.
 */
import { writeFile } from "node:fs/promises";
import { format, resolveConfig } from "prettier";

export async function writeFormatted(path: string, text: string): Promise<void> {
  const options = (await resolveConfig(path)) ?? {};
  await writeFile(path, await format(text, { ...options, filepath: path }));
}
