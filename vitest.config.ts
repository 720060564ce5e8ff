import { defineConfig } from "vitest/config";

/**
 * Files that measure the host while they run (processes in /proc, bytes on disk; real milliseconds
 * between two processes' writes): alone, after the rest, where no peer delays their event loop.
 */
const ALONE = ["test/security/sandbox-limits.test.ts", "test/store/shared-limits.test.ts"];
/**
 * bench:review's hard set: minutes of `node --test` and sandboxed proofs that would load both cores
 * under the suite's end-to-end tests (their 30 s limits are for a machine the suite shares with
 * itself): after the suite, before the files that must be alone.
 */
const HEAVY = ["test/bench/bench-review-hard.test.ts"];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Tests spawn real git, bash and bubblewrap, and wait on local servers: three workers on two
    // cores keep both busy (vitest's default is cores − 1, a single worker on two).
    pool: "forks",
    projects: [
      { extends: true, test: { name: "suite", include: ["test/**/*.test.ts"], exclude: [...ALONE, ...HEAVY], maxWorkers: 3, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: "heavy", include: HEAVY, maxWorkers: 1, sequence: { groupOrder: 1 } } },
      { extends: true, test: { name: "alone", include: ALONE, maxWorkers: 1, sequence: { groupOrder: 2 } } },
    ],
  },
});
