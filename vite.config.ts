/**
 * The web UI build (`npm run build:web` = `react-router build`, settings in react-router.config.ts):
 * web/app -> build/server/index.js + build/client/.
 * web/server/server.ts loads the server build and passes the one core instance in the load context, so the
 * bundle must never contain core itself (ARCHITECTURE §8): web/app imports core with `import type` only
 * (eslint), and the `no-core-in-bundle` plugin below fails the build if a core module is ever resolved.
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import { extname, join, resolve, sep } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants as zlib, gzip } from "node:zlib";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig, type Plugin, type Rollup } from "vite";
import { mantineStylesCovered } from "./web/vite/mantine-styles.js";
import { staticallyNeeded } from "./web/vite/statically-needed.js";

const coreDir = resolve("core") + sep;

/**
 * Core modules the UI may bundle (decision 0013): pure functions and plain data, no Node built-ins, no
 * state, so a copy in the bundle cannot become a second core. web/app reaches them only through
 * web/app/lib/pure-core.ts. Anything else under core/ still fails the build.
 */
const PURE_CORE = [
  resolve("core/auth/password-strength.ts"),
  resolve("core/errors.ts"),
  resolve("core/policy/guards.ts"),
  resolve("core/policy/recipes.ts"),
  resolve("core/policy/subjects.ts"),
  resolve("core/policy/users.ts"),
  resolve("core/query/query-filter.ts"),
  resolve("core/query/now-placeholder.ts"),
  resolve("core/theme.ts"),
  resolve("core/labels/locales.ts"),
  resolve("core/recipes/display.ts"),
  resolve("core/recipes/quantity.ts"),
];

function noCoreInBundle(): Plugin {
  return {
    name: "larder:no-core-in-bundle",
    enforce: "pre",
    load(id) {
      if (id.startsWith(coreDir) && !PURE_CORE.includes(id.split("?")[0])) {
        this.error(
          `web/app must not bundle core (${id}); use \`import type\` and take core from context.larder`,
        );
      }
      return null;
    },
  };
}

/**
 * Brotli and gzip twins of the client build's text assets (`x.js.br`, `x.js.gz`), at the highest levels,
 * once per build: web/server/static-files.ts sends the twin the browser accepts. Small files and types
 * that are compressed already (images, fonts) get none. React Router writes the client's route
 * manifest (`assets/manifest-<hash>.js`, 76 kB) while it builds the server, and the service worker is
 * copied from public/: the client folder's files that have no twin by then get theirs once the server
 * build is written.
 */
function precompress(): Plugin {
  const TEXT = new Set([".js", ".mjs", ".css", ".svg", ".json", ".txt", ".webmanifest", ".html"]);
  const br = promisify(brotliCompress);
  const gz = promisify(gzip);
  const twins = async (file: string) => {
    const data = await readFile(file);
    if (data.length < 1024) return;
    await writeFile(`${file}.br`, await br(data, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }));
    await writeFile(`${file}.gz`, await gz(data, { level: 9 }));
  };
  return {
    name: "larder:precompress",
    apply: "build",
    async writeBundle(options, bundle) {
      if (!options.dir) return;
      const consumer = this.environment?.config.consumer;
      if (consumer === "client") {
        const dir = options.dir;
        await Promise.all(
          Object.keys(bundle)
            // Not Vite's build manifest (.vite/): React Router deletes it once read, and twins outlived it.
            .filter((name) => TEXT.has(extname(name)) && !name.startsWith(".vite/"))
            .map((name) => twins(join(dir, name))),
        );
      } else if (consumer === "server") {
        const client = join(options.dir, "..", "client");
        for (const dir of [client, join(client, "assets")]) {
          const names = await readdir(dir).catch(() => [] as string[]);
          const have = new Set(names);
          await Promise.all(
            names
              .filter((name) => TEXT.has(extname(name)) && !have.has(`${name}.br`))
              .map((name) => twins(join(dir, name))),
          );
        }
      }
    },
  };
}

/**
 * Client chunks (decision 0223). Left to itself, the build split the client into some 170 chunks, and a
 * page loaded 55–70 of them, most under 2 kB. Over HTTP/1.1 a browser opens six connections to a host,
 * so on a phone's slow connection each further six cost a round trip: a recipe page on DevTools' "Fast
 * 3G" hydrated after about 10 s. What every page runs is three chunks: the framework (React, React
 * Router, i18next), the UI kit (Mantine and what it imports) and the app's shell (web/app/lib and the
 * shell's components). A page then loads 7–14 scripts.
 *
 * The UI kit is three chunks, not one: as one, every page downloaded every component any page uses,
 * 100 kB compressed where the group home runs 77 kB. `ui-kit` holds what the shell (APP_SHELL) and the
 * pages most visits start on (LANDING) use, so those load nothing more. `ui-numbers` holds NumberInput
 * and react-number-format, a third of the rest, which only the shopping list, the recipe editor and two
 * settings pages use. `ui-forms` holds the rest (tables, password, colour and file inputs…). A page
 * that uses them loads one or two scripts more.
 */
const FRAMEWORK =
  /\/node_modules\/(react|react-dom|scheduler|react-router|cookie|set-cookie-parser|i18next|react-i18next|html-parse-stringify|void-elements|use-sync-external-store)\//;
const UI_KIT =
  /\/node_modules\/(@mantine\/[^/]+|@floating-ui\/[^/]+|react-remove-scroll[^/]*|react-style-singleton|use-sidecar|use-callback-ref|detect-node-es|get-nonce|tslib|react-transition-group|@babel\/runtime|clsx|dom-helpers|react-number-format|react-textarea-autosize|type-fest)\//;
const UI_NUMBERS = /\/node_modules\/(react-number-format\/|@mantine\/core\/esm\/components\/NumberInput\/)/;
const APP_SHELL = [resolve("web/app/lib") + sep, resolve("web/app/components/shell") + sep];
/**
 * The client's entry and the route modules of the group home and of a recipe, with their parents. The
 * recipe page is in because it is what a shared link opens: without it, it loaded all of `ui-forms`
 * (20 kB) for about 4 kB of checkboxes, text areas and a segmented control, a 15th script, and on
 * "Fast 3G" hydrated 0.4 s later than with the single UI-kit chunk; the home pays 4 kB for it.
 */
const LANDING = [
  "web/app/entry.client.tsx",
  "web/app/root.tsx",
  "web/app/routes/g.$groupSlug.tsx",
  "web/app/routes/g.$groupSlug._index.tsx",
  "web/app/routes/g.$groupSlug.r.$slug.tsx",
].map((file) => resolve(file));

/**
 * The client build's `manualChunks`. Rollup asks it about every module once it has read them all, so
 * what LANDING and APP_SHELL need is worked out at the first UI-kit module, once per build
 * (`getModuleInfo` is the build's own).
 */
function clientChunks(): Rollup.GetManualChunk {
  const needs = new WeakMap<object, Set<string>>();
  return (id, { getModuleIds, getModuleInfo }) => {
    if (FRAMEWORK.test(id)) return "framework";
    if (UI_KIT.test(id)) {
      let landing = needs.get(getModuleInfo);
      if (!landing) {
        const roots = [...getModuleIds()].filter((m) => {
          const file = m.split("?")[0];
          return LANDING.includes(file) || APP_SHELL.some((dir) => file.startsWith(dir));
        });
        landing = staticallyNeeded(roots, getModuleInfo);
        needs.set(getModuleInfo, landing);
      }
      if (landing.has(id)) return "ui-kit";
      return UI_NUMBERS.test(id) ? "ui-numbers" : "ui-forms";
    }
    if (APP_SHELL.some((dir) => id.startsWith(dir))) return "app-shell";
    return undefined;
  };
}

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [noCoreInBundle(), reactRouter(), precompress(), mantineStylesCovered()],
  build: {
    rollupOptions: {
      // A route with nothing for one side of the build (a page whose module is all loader, an action-only
      // route) is an empty chunk there by design; the notices were a dozen lines of noise in `npm start`.
      onwarn(warning, warn) {
        if (warning.code !== "EMPTY_BUNDLE") warn(warning);
      },
      output: isSsrBuild ? {} : { manualChunks: clientChunks() },
    },
  },
  ssr: {
    // Every library the pages use goes into the server build, which Node then loads as a few files:
    // left as imports of node_modules, the first page after a start resolved and read some 3,900 files
    // (749 of @mantine/core alone), most of its time (decision 0203). React, React Router and i18next
    // stay imports: the server and the terminal app use the same copies, and a React context only
    // works within one copy.
    noExternal: true,
    external: ["react", "react-dom", "react-router", "@react-router/node", "i18next", "react-i18next"],
  },
}));
