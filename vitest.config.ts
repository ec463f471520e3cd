import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: [
      {
        test: { name: "unit", include: ["test/**/*.test.ts"], exclude: ["test/e2e/**"], testTimeout: 20_000 },
      },
      {
        // Against the sandbox host (test/sandbox): booted once per run by the global setup.
        test: {
          name: "e2e", include: ["test/e2e/**/*.test.ts"], globalSetup: ["test/e2e/global-setup.ts"],
          testTimeout: 120_000, hookTimeout: 600_000, fileParallelism: false,
        },
      },
    ],
  },
});
