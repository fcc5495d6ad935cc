import { defineConfig } from "vitest/config";

// CI reads a plain "N passed, N failed" line that .ci/run computes from this JSON report.
export default defineConfig({
  test: {
    include: ["{core,cli,plugins,web,tests}/**/*.test.{ts,tsx}"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    reporters: ["default", "json"],
    outputFile: { json: "test-results/vitest.json" },
  },
});
