#!/usr/bin/env node
/**
 * `npm run build:bundle`: the CLI and server as one ES module bundle (dist/bundle/), so that starting
 * `larder serve` reads a few files instead of resolving and compiling hundreds of modules
 * (decision 0111). Code behind a dynamic import (the HTTP stack, migrations, sharp, mail, LDAP, the
 * terminal app) lands in chunks of its own and loads when first used, as before.
 *
 * Left outside the bundle: packages with native code or files of their own found by path at run time
 * (sharp, tinypool's worker), and React with everything the UI's server build (build/) imports, so
 * both sides share one copy. Ink is bundled (decision 0205): it imports React from outside, so the
 * terminal app and the pages still share one React, and its some 500 files (416 of them es-toolkit's)
 * no longer load one by one when the terminal app starts.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const OUT = join(ROOT, "dist", "bundle");

/** The recipe reader's fingerprint (core/recipes/store/index-cache.ts), from the source it is built from. */
function readerFingerprint() {
  const h = createHash("sha256");
  const file = join(ROOT, "core", "recipes", "file");
  for (const [dir, only] of [
    [file, null],
    [join(ROOT, "core", "recipes"), /^doc\.ts$/],
  ]) {
    for (const name of readdirSync(dir).sort()) {
      if (!/\.ts$/.test(name) || /\.test\.|\.d\.ts$/.test(name)) continue;
      if (only && !only.test(name)) continue;
      h.update(name).update(readFileSync(join(dir, name)));
    }
  }
  return h.digest("hex").slice(0, 16);
}

const EXTERNAL = [
  "sharp",
  "tinypool",
  "react",
  "react/*",
  "react-dom",
  "react-dom/*",
  "react-router",
  "@react-router/*",
  "@mantine/*",
  "i18next",
  "react-i18next",
  "vite",
  "esbuild",
  "lightningcss",
  "fsevents",
  // Ink imports it only when DEV=true, for React's devtools; it is not installed.
  "react-devtools-core",
];

/**
 * gray-matter loads js-yaml (and js-yaml looks for esprima in node_modules, for `!!js/function`) when it
 * is loaded, for its default YAML engine. core/recipes/file/front-matter.ts replaces every engine (YAML
 * is read by the `yaml` package), so that engine never runs: a stand-in that refuses keeps ~45 ms of
 * loading off every start (decision 0139). Only gray-matter's import is replaced.
 */
const grayMatterWithoutJsYaml = {
  name: "gray-matter-without-js-yaml",
  setup(b) {
    b.onResolve({ filter: /^js-yaml$/ }, (args) =>
      /[\\/]gray-matter[\\/]/.test(args.importer)
        ? { path: "js-yaml", namespace: "unused-js-yaml" }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "unused-js-yaml" }, () => ({
      loader: "js",
      contents: `const unused = () => { throw new Error("gray-matter's js-yaml engine is not bundled: front matter is read by the yaml package"); };
module.exports = { safeLoad: unused, safeDump: unused };`,
    }));
  },
};

/**
 * A package's large JSON file (mime-db's 190 kB, loaded by compression for the first answer) bundled
 * as `JSON.parse("…")` instead of an object literal: V8 parses a JSON string several times faster
 * than the same data as JavaScript source, and the value is the same (decision 0163).
 */
const LARGE_JSON_BYTES = 10_000;
const largeJsonAsParse = {
  name: "large-json-as-parse",
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/].*\.json$/ }, (args) => {
      const text = readFileSync(args.path, "utf8");
      if (text.length < LARGE_JSON_BYTES) return undefined;
      return {
        loader: "js",
        contents: `module.exports = JSON.parse(${JSON.stringify(JSON.stringify(JSON.parse(text)))});`,
      };
    });
  },
};

/**
 * Built-ins imported as ES modules get a facade from Node that reads every export once; node:fs's
 * exports include getters that load its streams and promises API (~12 ms of a start, measured:
 * `import("node:fs")` against `process.getBuiltinModule("node:fs")`). For the built-ins below the
 * bundle imports a module of its own instead: the built-in from `process.getBuiltinModule`, each
 * export read from it once, and only the exports something imports (esbuild drops the unused
 * `__PURE__` reads). `require()` of a built-in is left to Node, and so is every other built-in
 * (their facades cost nothing measurable, or they are loaded only after the first answer).
 */
const WITHOUT_FACADE = ["fs", "os", "path", "url", "events", "buffer"];
const builtinsWithoutFacade = {
  name: "builtins-without-facade",
  setup(b) {
    const filter = new RegExp(`^(node:)?(${WITHOUT_FACADE.join("|")})$`);
    b.onResolve({ filter }, (args) =>
      args.kind === "import-statement"
        ? { path: args.path.replace(/^node:/, ""), namespace: "builtin-value", sideEffects: false }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "builtin-value" }, (args) => {
      const name = `node:${args.path}`;
      const lines = [`const m = process.getBuiltinModule(${JSON.stringify(name)});`, "export default m;"];
      for (const key of Object.keys(process.getBuiltinModule(name))) {
        if (key === "default" || !/^[A-Za-z_$][\w$]*$/.test(key)) continue;
        lines.push(`export const ${key} = /* @__PURE__ */ (() => m.${key})();`);
      }
      return { loader: "js", contents: lines.join("\n") };
    });
  },
};

/**
 * How long the files of an earlier build are kept beside the new one (decision 0219). A server
 * started from that build loads some of its chunks only when first used (an import, a backup, the
 * parser): rebuilding while it runs (`npm run larder -- …` after a `git pull`) deleted them, and those
 * requests failed with ERR_MODULE_NOT_FOUND until a restart.
 */
export const KEEP_EARLIER_BUILDS_MS = 14 * 24 * 3600_000;

/**
 * Delete what an earlier build left in `dir` (not one of `current`, relative paths) and has not been
 * written for `maxAgeMs`. Returns the relative paths it deleted.
 */
export function pruneEarlierBuilds(dir, current, maxAgeMs = KEEP_EARLIER_BUILDS_MS, now = Date.now()) {
  const deleted = [];
  const visit = (sub) => {
    let entries;
    try {
      entries = readdirSync(join(dir, sub), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const rel = sub ? `${sub}/${e.name}` : e.name;
      // Node's compile cache keeps itself; a build's own files are never old.
      if (e.name === ".compile-cache" || current.has(rel)) continue;
      if (e.isDirectory()) {
        visit(rel);
        continue;
      }
      if (now - statSync(join(dir, rel)).mtimeMs < maxAgeMs) continue;
      rmSync(join(dir, rel), { force: true });
      deleted.push(rel);
    }
  };
  visit("");
  return deleted;
}

export async function bundle() {
  const t0 = performance.now();
  // The worker thread's script has a name of its own per build, so that a server started from an
  // earlier build keeps starting the worker it was built with (decision 0219).
  const workerFile = `worker-${Date.now().toString(36)}.js`;
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: { larder: "cli/start.ts", worker: "core/workers/worker.ts" },
    outdir: OUT,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    sourcemap: "linked",
    // No comments in the chunks (decision 0163): a kept comment with a `—` or `§` made Node decode a
    // whole chunk (server, larder, zod: 1.9 MB on the start path) to a two-byte string, and the
    // comments and indentation were a third of what every start reads, decodes and hashes. Only
    // whitespace: names and code are as written, and the source maps point into the sources.
    minifyWhitespace: true,
    // Licence comments of bundled packages go to a file beside each chunk instead of being dropped.
    legalComments: "linked",
    external: EXTERNAL,
    chunkNames: "chunks/[name]-[hash]",
    metafile: true,
    plugins: [grayMatterWithoutJsYaml, largeJsonAsParse, builtinsWithoutFacade],
    logLevel: "warning",
    define: {
      __LARDER_READER_FINGERPRINT__: JSON.stringify(readerFingerprint()),
      __LARDER_WORKER_FILE__: JSON.stringify(workerFile),
    },
    // Bundled CommonJS packages call require() for Node's built-ins.
    banner: {
      // From process.getBuiltinModule, not an import: node:module's ES module facade costs a few ms.
      js: 'const require = process.getBuiltinModule("node:module").createRequire(import.meta.url);',
    },
  });
  for (const ext of ["", ".map"]) {
    const from = join(OUT, `worker.js${ext}`);
    if (existsSync(from)) renameSync(from, join(OUT, `${workerFile}${ext}`));
  }
  const worker = join(OUT, workerFile);
  writeFileSync(
    worker,
    readFileSync(worker, "utf8").replace(
      "sourceMappingURL=worker.js.map",
      `sourceMappingURL=${workerFile}.map`,
    ),
  );
  writeFileSync(join(OUT, "meta.json"), JSON.stringify(result.metafile));
  const outputs = Object.keys(result.metafile.outputs).map((f) => f.slice("dist/bundle/".length));
  const current = new Set([
    ...outputs.map((f) => f.replace(/^worker\.js/, workerFile)),
    ...outputs.map((f) => `${f.replace(/^worker\.js/, workerFile)}.LEGAL.txt`),
    "meta.json",
  ]);
  pruneEarlierBuilds(OUT, current);
  const files = outputs.filter((f) => f.endsWith(".js"));
  return { ms: performance.now() - t0, files: files.length };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const r = await bundle();
  process.stdout.write(`dist/bundle: ${r.files} files in ${r.ms.toFixed(0)} ms\n`);
}
