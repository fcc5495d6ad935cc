/**
 * The web UI build (`npm run build:web` = `react-router build`, settings in react-router.config.ts):
 * web/app -> build/server/index.js + build/client/.
 * web/server/server.ts loads the server build and passes the one core instance in the load context, so the
 * bundle must never contain core itself (ARCHITECTURE §8): web/app imports core with `import type` only
 * (eslint), and the `no-core-in-bundle` plugin below fails the build if a core module is ever resolved.
 */
import { resolve, sep } from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig, type Plugin } from "vite";

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
  resolve("core/theme.ts"),
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

export default defineConfig({
  plugins: [noCoreInBundle(), reactRouter()],
  ssr: {
    // Server-only libraries stay plain Node imports of node_modules (one copy, loaded by Node at runtime).
    external: ["markdown-it", "sanitize-html", "isbot", "busboy"],
    noExternal: [],
  },
});
