import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: [
      {
        // Generous limits: a loaded 2-core runner stretches real processes and sshd several times over; every
        // wait inside a test has its own deadline, so a hang still ends.
        test: { name: "unit", include: ["test/**/*.test.ts"], exclude: ["test/e2e/**"], testTimeout: 60_000 },
      },
      {
        // Against the sandbox host (test/sandbox): booted once per run by the global setup.
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          globalSetup: ["test/e2e/support/global-setup.ts"],
          testTimeout: 600_000,
          hookTimeout: 600_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
