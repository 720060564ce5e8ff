import { describe, expect, it } from "vitest";
import { mergeFingerprints, repoKey } from "../../src/review/review-store.js";

describe("repoKey", () => {
  it("is owner/repo lower-cased", () => {
    expect(repoKey("Octo", "Hello-World")).toBe("octo/hello-world");
  });
});

// The SQLite store's behaviour is the review store contract (review-store-contract.ts), run for
// SQLite and Redis in redis-review-store.test.ts.

describe("mergeFingerprints", () => {
  it("keeps each once at its newest place, and only the newest max", () => {
    expect(mergeFingerprints(["a", "b", "c"], ["b", "d"], 3)).toEqual(["c", "b", "d"]);
    expect(mergeFingerprints([], ["x", "x"])).toEqual(["x"]);
  });
});
