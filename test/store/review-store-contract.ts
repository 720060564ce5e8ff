/** The ReviewStore contract, for any store: `place()` is a new empty store's location, `open` opens one there. */
import { describe, expect, it } from "vitest";
import { MAX_FINGERPRINTS, type ReviewStore, type StoredFinding } from "../../src/review/review-store.js";
import { closedAfterEach } from "./closed-after-each.js";

export interface ReviewStoreFactory {
  place(): Promise<string>;
  open(place: string, now?: () => number): ReviewStore;
  /**
   * Writes a record as an older crewbot left it, in the store's own format at `place` (opened
   * already): head and fingerprints, and the findings' JSON only when given (before severities
   * were kept there was none).
   */
  writeOld(place: string, repoKey: string, number: number, old: { headSha: string; fingerprints: string[]; findingsJson?: string }): Promise<void>;
}

const finding = (fingerprint: string, o: Partial<StoredFinding> = {}): StoredFinding => ({
  ...{ fingerprint, severity: "critical", path: "src/a.ts", line: 3, title: "`a` is wrong", commit: "sha-1" },
  ...o,
});

export function reviewStoreContract(name: string, factory: ReviewStoreFactory): void {
  const open = closedAfterEach((place, now) => factory.open(place, now));

  describe(`${name}: the review store contract`, () => {
    it("has nothing for a pull request never reviewed", async () => {
      expect(await open(await factory.place()).get("octo/hello", 1)).toBeUndefined();
    });

    it("records the head and the fingerprints, per pull request, and keeps them across a reopen", async () => {
      const place = await factory.place();
      let now = 1_000;
      const store = open(place, () => now);
      await store.record("octo/hello", 1, "sha-1", ["a", "b"]);
      await store.record("octo/hello", 2, "sha-x", ["z"]);
      await store.record("octo/other", 1, "sha-y", []);
      now = 2_000;
      await store.record("octo/hello", 1, "sha-2", ["c"]);
      await store.close();

      const again = open(place);
      expect(await again.get("octo/hello", 1)).toEqual({ headSha: "sha-2", fingerprints: ["a", "b", "c"], findings: [], reviewedAt: 2_000 });
      expect(await again.get("octo/hello", 2)).toEqual({ headSha: "sha-x", fingerprints: ["z"], findings: [], reviewedAt: 1_000 });
      expect(await again.get("octo/other", 1)).toEqual({ headSha: "sha-y", fingerprints: [], findings: [], reviewedAt: 1_000 });
      expect((await again.get("Octo/Hello", 1))?.headSha).toBe("sha-2");
    });

    it("deduplicates, keeps the fingerprints on a clean review, and keeps only the newest", async () => {
      const store = open(await factory.place());
      await store.record("octo/hello", 1, "sha-1", ["a", "b", "a"]);
      await store.record("octo/hello", 1, "sha-2", ["b", "c", "c"]);
      await store.record("octo/hello", 1, "sha-3", []);
      expect(await store.get("octo/hello", 1)).toMatchObject({ headSha: "sha-3", fingerprints: ["a", "b", "c"] });
      await store.record("octo/hello", 2, "sha-1", Array.from({ length: MAX_FINGERPRINTS }, (_, i) => `old-${i}`));
      await store.record("octo/hello", 2, "sha-2", ["old-0", "new-1"]);
      const { fingerprints } = (await store.get("octo/hello", 2))!;
      expect(fingerprints).toHaveLength(MAX_FINGERPRINTS);
      expect(fingerprints.slice(0, 1)).toEqual(["old-2"]);
      expect(fingerprints.slice(-2)).toEqual(["old-0", "new-1"]);
    });

    it("loses no fingerprint when two stores record on one pull request at once", async () => {
      const place = await factory.place();
      const a = open(place);
      const b = open(place);
      await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).record("octo/hello", 1, `sha-${i}`, [`fp-${i}`])),
      );
      const state = await a.get("octo/hello", 1);
      expect([...state!.fingerprints].sort()).toEqual(Array.from({ length: 20 }, (_, i) => `fp-${i}`).sort());
    });

    it("keeps each posted finding with its severity, marks fixed ones, and keeps them across a reopen", async () => {
      const place = await factory.place();
      const store = open(place);
      const body = finding("b", { severity: "warning", path: "README.md", line: 9, endLine: 11, url: "https://github.com/o/r/pull/1#pullrequestreview-7" });
      await store.record("octo/hello", 1, "sha-1", ["a", "b"], { posted: [finding("a"), body] });
      await store.record("octo/hello", 1, "sha-2", [], { fixed: ["b", "unknown"] });
      // A clean review later changes nothing; one posted again on another head replaces its entry (still fixed).
      await store.record("octo/hello", 1, "sha-3", []);
      await store.record("octo/hello", 1, "sha-4", ["b"], { posted: [{ ...body, commit: "sha-4" }] });
      await store.close();

      const again = open(place);
      expect((await again.get("octo/hello", 1))!.findings).toEqual([finding("a"), { ...body, commit: "sha-4", fixed: true }]);
      expect((await again.get("octo/hello", 2))).toBeUndefined();
    });

    it("loads a record of an older version: no findings kept, and a finding without a severity counts as critical", async () => {
      const place = await factory.place();
      const store = open(place);
      await factory.writeOld(place, "octo/hello", 1, { headSha: "sha-old", fingerprints: ["a", "b"] });
      await factory.writeOld(place, "octo/hello", 2, {
        headSha: "sha-old",
        fingerprints: ["c", "d"],
        findingsJson: JSON.stringify([{ fingerprint: "c", path: "a.ts", line: 4, title: "x", commit: "sha-old" }, { fingerprint: "d", severity: "warning" }]),
      });
      expect(await store.get("octo/hello", 1)).toMatchObject({ headSha: "sha-old", fingerprints: ["a", "b"], findings: [] });
      expect((await store.get("octo/hello", 2))!.findings).toEqual([{ fingerprint: "c", severity: "critical", path: "a.ts", line: 4, title: "x", commit: "sha-old" }]);
      // And the next review writes on top of it.
      await store.record("octo/hello", 1, "sha-new", ["e"], { posted: [finding("e")] });
      expect(await store.get("octo/hello", 1)).toMatchObject({ headSha: "sha-new", fingerprints: ["a", "b", "e"], findings: [finding("e")] });
    });

    it("rejects bad keys and values", async () => {
      const store = open(await factory.place());
      await expect(store.get("octo", 1)).rejects.toThrow(/owner\/repo/);
      await expect(store.get("octo/hello", 0)).rejects.toThrow(/number/);
      await expect(store.record("octo/hello", 1, "", [])).rejects.toThrow(/head sha/);
      await expect(store.record("octo/hello", 1, "sha", ["", "a"])).rejects.toThrow(/fingerprints/);
      await expect(store.record("octo/hello", 1, "sha", ["a"], { posted: [finding("a", { severity: "fatal" as never })] })).rejects.toThrow(/severity/);
      expect(await store.get("octo/hello", 1)).toBeUndefined();
    });
  });
}
