import { defineConfig } from "vitest/config";

// CI reads a plain "N passed, N failed" line that .ci/run computes from this JSON report.
// Browser journeys run one file at a time: several Chromiums at once on a 2-core machine starve each other.
export default defineConfig({
  test: {
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Every JSON document update is also validated in full and must come out the same (decision 0190).
    env: { LARDER_VERIFY_INCREMENTAL: "1" },
    reporters: ["default", "json"],
    outputFile: { json: "test-results/vitest.json" },
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["{core,cli,plugins,web,tests}/**/*.test.{ts,tsx}"],
          exclude: ["tests/e2e/**", "**/node_modules/**"],
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["tests/e2e/**/*.test.ts"],
          fileParallelism: false,
          testTimeout: 60_000,
        },
      },
    ],
  },
});
