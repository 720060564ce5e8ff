import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Tests spawn real git, bash and bubblewrap; two cores here.
    pool: "forks",
  },
});
