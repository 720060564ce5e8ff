import { defineConfig } from "vitest/config";

/**
 * Files that measure the host while they run (processes in /proc, bytes on disk; real milliseconds
 * between two processes' writes): alone, after the rest, where no peer delays their event loop.
 */
const ALONE = ["test/security/sandbox-limits.test.ts", "test/store/shared-limits.test.ts"];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Tests spawn real git, bash and bubblewrap, and wait on local servers: three workers on two
    // cores keep both busy (vitest's default is cores − 1, a single worker on two).
    pool: "forks",
    projects: [
      { extends: true, test: { name: "suite", include: ["test/**/*.test.ts"], exclude: ALONE, maxWorkers: 3, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: "alone", include: ALONE, maxWorkers: 1, sequence: { groupOrder: 1 } } },
    ],
  },
});
