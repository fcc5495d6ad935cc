/**
 * The app imports Mantine's styles per component (web/app/mantine.css, decision 0224), not the whole
 * stylesheet. A component the app starts to use whose styles are not imported would render unstyled,
 * and no test looks at every screen. So the client build checks it: every class name a Mantine CSS module
 * in the bundle gives its component (`m_77c9d27d`) must be defined in the bundle's stylesheets, or the
 * build fails and names the import to add.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Plugin } from "vite";

/** A Mantine CSS module as bundled: `{ root: "m_77c9d27d", … }`. */
const CSS_MODULE = /[\\/]@mantine[\\/]core[\\/]esm[\\/].*[\\/]([^\\/]+)\.module\.mjs$/;
const CLASS = /"(m_[0-9a-f]+)"/g;
const require = createRequire(import.meta.url);

const classesOf = (css: string) => new Set(css.match(/\.m_[0-9a-f]+/g)?.map((c) => c.slice(1)));

/**
 * The Mantine stylesheets missing from `css`: for each CSS module (by file, with its source) with a class
 * that Mantine's whole stylesheet (`all`) styles and `css` does not, the stylesheet's name ("Button"),
 * once each, sorted. (Some modules name classes no stylesheet styles.)
 */
export function missingMantineStyles(
  modules: ReadonlyMap<string, string>,
  css: string,
  all: string,
): string[] {
  const defined = classesOf(css);
  const styled = classesOf(all);
  const missing = new Set<string>();
  for (const [file, source] of modules) {
    const name = CSS_MODULE.exec(file)?.[1];
    if (!name) continue;
    for (const [, cls] of source.matchAll(CLASS))
      if (styled.has(cls) && !defined.has(cls)) {
        missing.add(name);
        break;
      }
  }
  return [...missing].sort();
}

export function mantineStylesCovered(): Plugin {
  return {
    name: "larder:mantine-styles-covered",
    apply: "build",
    generateBundle(_options, bundle) {
      if (this.environment?.config.consumer !== "client") return;
      const modules = new Map<string, string>();
      let css = "";
      for (const out of Object.values(bundle)) {
        if (out.type === "asset" && out.fileName.endsWith(".css")) css += String(out.source);
        if (out.type !== "chunk") continue;
        for (const [id, m] of Object.entries(out.modules))
          if (m.renderedLength > 0 && CSS_MODULE.test(id)) modules.set(id, readFileSync(id, "utf8"));
      }
      const all = readFileSync(require.resolve("@mantine/core/styles.css"), "utf8");
      const missing = missingMantineStyles(modules, css, all);
      if (missing.length)
        this.error(
          `Mantine components without their styles: add ${missing
            .map((n) => `@import "@mantine/core/styles/${n}.css";`)
            .join(" ")} to web/app/mantine.css, in the order of @mantine/core/styles.css; without them` +
            " those components render unstyled",
        );
    },
  };
}
