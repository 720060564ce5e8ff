import { describe, expect, it } from "vitest";
import { fingerprintMarker } from "../../src/review/fingerprint.js";
import { findingTitle, labelledSeverity, openFindings, storedFinding } from "../../src/review/open-findings.js";
import type { StoredFinding } from "../../src/review/review-store.js";
import type { ReviewThread } from "../../src/review/thread-plan.js";

const SHA = "c".repeat(40);
const print = (n: number) => n.toString(16).padStart(16, "0");

const kept = (n: number, o: Partial<StoredFinding> = {}): StoredFinding => ({
  ...{ fingerprint: print(n), severity: "critical", path: "a.ts", line: n, title: `finding ${n}`, commit: SHA, url: "https://github.com/o/r/pull/1#pullrequestreview-1" },
  ...o,
});

function thread(n: number, o: { body?: string; url?: string; line?: number } = {}): ReviewThread {
  return {
    ...{ id: `T${n}`, isResolved: false, isOutdated: false, path: "a.ts", line: o.line ?? n, startLine: null, originalLine: o.line ?? n, originalStartLine: null, diffSide: "RIGHT" },
    comments: [{ databaseId: n, body: o.body ?? `**Critical** — finding ${n}.\n\n${fingerprintMarker(print(n))}`, author: { login: "crewbot" }, originalCommit: { oid: SHA }, url: o.url ?? `https://github.com/o/r/pull/1#discussion_r${n}` }],
  };
}

describe("openFindings", () => {
  it("counts the kept findings no push fixed and no thread closed, linked to their open thread", () => {
    const stored = [kept(1), kept(2), kept(3, { fixed: true }), kept(4, { severity: "suggestion" }), kept(5)];
    const plan = { open: [thread(1)], closed: [thread(2)] };
    expect(openFindings(stored, plan, new Set([print(5)]))).toEqual([
      { severity: "critical", path: "a.ts", line: 1, title: "finding 1", fingerprint: print(1), url: "https://github.com/o/r/pull/1#discussion_r1" },
      { severity: "suggestion", path: "a.ts", line: 4, title: "finding 4", fingerprint: print(4), url: "https://github.com/o/r/pull/1#pullrequestreview-1" },
    ]);
  });

  it("without the threads (GitHub could not say), every kept finding not fixed stays open: the gate fails closed", () => {
    expect(openFindings([kept(1), kept(2, { fixed: true })], undefined).map((f) => f.fingerprint)).toEqual([print(1)]);
  });

  it("adopts an open thread of crewbot's the store does not know, its severity from crewbot's label", () => {
    const plan = {
      open: [thread(7, { body: `**Warning** _(lines 3–5)_ — old one.\n\n${fingerprintMarker(print(7))}` }), thread(8, { body: `no label ${fingerprintMarker(print(8))}` })],
      closed: [],
    };
    expect(openFindings([], plan)).toEqual([
      { severity: "warning", path: "a.ts", line: 7, title: "old one.", url: "https://github.com/o/r/pull/1#discussion_r7", fingerprint: print(7) },
      { severity: "critical", path: "a.ts", line: 8, title: "no label", url: "https://github.com/o/r/pull/1#discussion_r8", fingerprint: print(8) },
    ]);
  });
});

describe("a reproduced finding stays reproduced for the gate", () => {
  it("the store keeps that its reproducer failed, and openFindings carries it to later reviews (failOn: reproduced is sticky)", () => {
    const finding = { path: "a.ts", line: 3, severity: "critical" as const, text: "Off by one.", proof: { outcome: "reproduced" } as never };
    const stored = storedFinding(finding, print(3), SHA, undefined);
    expect(stored.reproduced).toBe(true);
    expect(storedFinding({ ...finding, proof: { outcome: "not reproduced" } as never }, print(4), SHA, undefined).reproduced).toBeUndefined();
    expect(openFindings([stored, kept(5)], { open: [], closed: [] }).map((f) => [f.fingerprint, f.reproduced === true])).toEqual([
      [print(3), true],
      [print(5), false],
    ]);
  });
});

describe("what the store keeps of a finding", () => {
  it("keeps its kind normalised and its suggestion as a print, never the suggestion's text", () => {
    const f = { path: "a.ts", line: 2, severity: "warning" as const, text: "Raw SQL.", kind: "Raw  SQL string.", suggestion: "db.query(sql, [id]);\n" };
    const stored = storedFinding(f, print(6), SHA, undefined);
    expect(stored).toMatchObject({ kind: "raw sql string", suggestion: { lines: 1, hash: expect.stringMatching(/^[0-9a-f]{16}$/) } });
    expect(JSON.stringify(stored)).not.toContain("db.query");
    expect(storedFinding({ ...f, kind: undefined, suggestion: undefined }, print(7), SHA, undefined)).not.toHaveProperty("kind");
  });

  it.each([
    ["**Critical** — x", "critical"],
    ["**Suggestion** _(lines 1–2)_ — x", "suggestion"],
    ["**Warning** — x", "warning"],
    ["**Bogus** — x", "critical"],
    ["plain text", "critical"],
  ])("the label of %j is %s", (body, severity) => {
    expect(labelledSeverity(body)).toBe(severity);
  });

  it("keeps the first line of the words, short, without a suggestion block", () => {
    expect(findingTitle("\n`a` is null here.\nMore detail.")).toBe("`a` is null here.");
    expect(findingTitle("x".repeat(300))).toBe(`${"x".repeat(119)}…`);
    expect(findingTitle("```suggestion\nfixed();\n```\nUse the fix.")).toBe("Use the fix.");
    expect(storedFinding({ path: "b.ts", line: 3, endLine: 5, severity: "warning", text: "slow loop" }, print(9), SHA, undefined)).toEqual({
      fingerprint: print(9),
      severity: "warning",
      path: "b.ts",
      line: 3,
      endLine: 5,
      title: "slow loop",
      commit: SHA,
    });
  });
});
