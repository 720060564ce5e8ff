import { afterEach, describe, expect, it } from "vitest";
import { MAX_FINGERPRINTS, mergeFingerprints, repoKey } from "../../src/queue/review-store.js";
import { SqliteReviewStore } from "../../src/queue/sqlite-review-store.js";
import { tempDataDir } from "./helpers.js";

const opened: SqliteReviewStore[] = [];
const open = (dataDir: string, now?: () => number) => {
  const store = new SqliteReviewStore(now ? { dataDir, now } : { dataDir });
  opened.push(store);
  return store;
};
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

describe("repoKey", () => {
  it("is owner/repo lower-cased", () => {
    expect(repoKey("Octo", "Hello-World")).toBe("octo/hello-world");
  });
});

describe("SqliteReviewStore", () => {
  it("has nothing for a pull request never reviewed", async () => {
    const store = open(await tempDataDir());
    expect(await store.get("octo/hello", 1)).toBeUndefined();
  });

  it("records the head and the fingerprints, per pull request, and keeps them across a reopen", async () => {
    const dir = await tempDataDir();
    let now = 1_000;
    const store = open(dir, () => now);
    await store.record("octo/hello", 1, "sha-1", ["a", "b"]);
    await store.record("octo/hello", 2, "sha-x", ["z"]);
    await store.record("octo/other", 1, "sha-y", []);
    now = 2_000;
    await store.record("octo/hello", 1, "sha-2", ["c"]);
    await store.close();

    const again = open(dir);
    expect(await again.get("octo/hello", 1)).toEqual({ headSha: "sha-2", fingerprints: ["a", "b", "c"], reviewedAt: 2_000 });
    expect(await again.get("octo/hello", 2)).toEqual({ headSha: "sha-x", fingerprints: ["z"], reviewedAt: 1_000 });
    expect(await again.get("octo/other", 1)).toEqual({ headSha: "sha-y", fingerprints: [], reviewedAt: 1_000 });
    // Keys are case-insensitive, as GitHub's names are.
    expect((await again.get("Octo/Hello", 1))?.headSha).toBe("sha-2");
  });

  it("a clean review moves the head and keeps the fingerprints", async () => {
    const store = open(await tempDataDir());
    await store.record("octo/hello", 1, "sha-1", ["a"]);
    await store.record("octo/hello", 1, "sha-2", []);
    expect(await store.get("octo/hello", 1)).toMatchObject({ headSha: "sha-2", fingerprints: ["a"] });
  });

  it("deduplicates fingerprints, within one record and across records", async () => {
    const store = open(await tempDataDir());
    await store.record("octo/hello", 1, "sha-1", ["a", "b", "a"]);
    await store.record("octo/hello", 1, "sha-2", ["b", "c", "c"]);
    expect((await store.get("octo/hello", 1))?.fingerprints).toEqual(["a", "b", "c"]);
  });

  it(`keeps at most ${MAX_FINGERPRINTS} fingerprints, the newest`, async () => {
    const store = open(await tempDataDir());
    const first = Array.from({ length: MAX_FINGERPRINTS }, (_, i) => `old-${i}`);
    await store.record("octo/hello", 1, "sha-1", first);
    await store.record("octo/hello", 1, "sha-2", ["old-0", "new-1", "new-2"]);
    const { fingerprints } = (await store.get("octo/hello", 1))!;
    expect(fingerprints).toHaveLength(MAX_FINGERPRINTS);
    // old-0 was posted again, so it counts as new; old-1 and old-2 were the oldest and went.
    expect(fingerprints.slice(0, 2)).toEqual(["old-3", "old-4"]);
    expect(fingerprints.slice(-3)).toEqual(["old-0", "new-1", "new-2"]);
    expect(fingerprints).not.toContain("old-1");
    expect(new Set(fingerprints).size).toBe(MAX_FINGERPRINTS);
  });

  it("rejects bad keys and values", async () => {
    const store = open(await tempDataDir());
    await expect(store.get("octo", 1)).rejects.toThrow(/owner\/repo/);
    await expect(store.get("octo/hello", 0)).rejects.toThrow(/number/);
    await expect(store.record("octo/hello", 1, "", [])).rejects.toThrow(/head sha/);
    await expect(store.record("octo/hello", 1, "sha", ["", "a"])).rejects.toThrow(/fingerprints/);
    await expect(store.record("octo/hello", 1, "sha", [3 as never])).rejects.toThrow(/fingerprints/);
    expect(await store.get("octo/hello", 1)).toBeUndefined();
  });
});

describe("mergeFingerprints", () => {
  it("keeps each once at its newest place, and only the newest max", () => {
    expect(mergeFingerprints(["a", "b", "c"], ["b", "d"], 3)).toEqual(["c", "b", "d"]);
    expect(mergeFingerprints([], ["x", "x"])).toEqual(["x"]);
  });
});
