import { describe, expect, it } from "vitest";
import { loadFindings, mergeFindings, mergeFingerprints, repoKey, type StoredFinding } from "../../src/review/review-store.js";

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

describe("mergeFindings and loadFindings", () => {
  const f = (fingerprint: string, o: Partial<StoredFinding> = {}): StoredFinding => ({ fingerprint, severity: "warning", path: "a.ts", line: 1, title: "t", commit: "s1", ...o });
  it("replaces a finding posted again, marks fixed ones for good, and keeps only the newest max", () => {
    expect(mergeFindings([f("a"), f("b")], { posted: [f("a", { commit: "s2" })], fixed: ["b"] })).toEqual([f("b", { fixed: true }), f("a", { commit: "s2" })]);
    expect(mergeFindings([f("b", { fixed: true })], { posted: [f("b", { commit: "s3" })] })).toEqual([f("b", { commit: "s3", fixed: true })]);
    expect(mergeFindings([f("a"), f("b"), f("c")], {}, 2).map((x) => x.fingerprint)).toEqual(["b", "c"]);
  });

  it("loads what another version wrote: no severity counts as critical, no place is dropped, bad JSON is none", () => {
    expect(loadFindings(JSON.stringify([{ fingerprint: "a", path: "a.ts", line: 2 }, { fingerprint: "b", severity: "warning" }, null]))).toEqual([
      { fingerprint: "a", severity: "critical", path: "a.ts", line: 2, title: "", commit: "" },
    ]);
    expect(loadFindings("{not json")).toEqual([]);
    expect(loadFindings(undefined)).toEqual([]);
    expect(loadFindings('{"a":1}')).toEqual([]);
  });
});
