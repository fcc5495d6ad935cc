/**
 * React Router's build settings (read by the Vite plugin in vite.config.ts): web/app -> build/server/index.js
 * + build/client/. LARDER_BUILD_DIR selects a private build (e.g. e2e runs beside another build).
 */
import type { Config } from "@react-router/dev/config";

export default {
  appDirectory: "web/app",
  buildDirectory: process.env.LARDER_BUILD_DIR ?? "build",
  serverModuleFormat: "esm",
  ssr: true,
} satisfies Config;
