import { defineConfig } from "vitest/config";

/** Files that measure the host (processes in /proc, bytes on disk) while they run: alone, after the rest. */
const ALONE = ["test/security/sandbox-limits.test.ts"];

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Tests spawn real git, bash and bubblewrap: one worker a core (vitest's default is cores − 1,
    // a single worker on two). More workers than cores ran into the 20 s test timeout under load.
    pool: "forks",
    projects: [
      { extends: true, test: { name: "suite", include: ["test/**/*.test.ts"], exclude: ALONE, maxWorkers: 2, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: "alone", include: ALONE, maxWorkers: 1, sequence: { groupOrder: 1 } } },
    ],
  },
});
