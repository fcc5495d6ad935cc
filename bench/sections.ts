/**
 * BENCHMARKS.md is written by several scripts: `npm run bench` rewrites the whole file, the others
 * (`bench:load`, `eval:parser`, `eval:import`, the web UI figures) own a section between
 * `<!-- NAME:start -->` and `<!-- NAME:end -->`. These keep every such section across a rewrite.
 */
const SECTION = /<!-- ([\w:.-]+):start -->[\s\S]*?<!-- \1:end -->/g;

/** Every marked section of a BENCHMARKS.md, in order. */
export function markedSections(markdown: string): string[] {
  return [...markdown.matchAll(SECTION)].map((m) => m[0]);
}

/** `markdown` with each of `sections` put back: in its place when the markdown has it, else appended. */
export function withSections(markdown: string, sections: readonly string[]): string {
  let out = markdown;
  for (const section of sections) {
    const name = /<!-- ([\w:.-]+):start -->/.exec(section)?.[1];
    if (!name) continue;
    const own = new RegExp(
      `<!-- ${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:start -->[\\s\\S]*?<!-- ${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:end -->`,
    );
    out = own.test(out) ? out.replace(own, () => section) : `${out.trimEnd()}\n\n${section}\n`;
  }
  return out;
}
