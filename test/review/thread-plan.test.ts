import { describe, expect, it } from "vitest";
import { parseDiff } from "../../src/review/diff-lines.js";
import { fingerprint, fingerprintMarker } from "../../src/review/fingerprint.js";
import {
  describeThread,
  dismissers,
  isDismissal,
  isOwnThread,
  isThreadFinding,
  linesChanged,
  planThreads,
  sameBot,
  threadFindingText,
  threadLines,
  withoutClosedFindings,
  type ReviewThread,
} from "../../src/review/thread-plan.js";

const SHA = "b".repeat(40);
const MARK = fingerprintMarker("0123456789abcdef");

function thread(o: Partial<ReviewThread> & { body?: string; author?: string; replies?: Array<[string, string]> } = {}): ReviewThread {
  const { body = `**Warning** — \`x\` is never read.\n\n${MARK}`, author = "crewbot", replies = [], ...rest } = o;
  return {
    ...{ id: "T1", isResolved: false, isOutdated: false, path: "a.ts", line: 5, startLine: null, originalLine: 5, originalStartLine: null, diffSide: "RIGHT" as const },
    comments: [
      { databaseId: 1, body, author: { login: author }, originalCommit: { oid: SHA } },
      ...replies.map(([login, text], i) => ({ databaseId: 2 + i, body: text, author: { login }, originalCommit: { oid: SHA } })),
    ],
    ...rest,
  };
}

describe("dismissal phrases", () => {
  it.each([
    ["won't fix", true],
    ["Won’t fix — this is on purpose.", true],
    ["wontfix", true],
    ["WONT FIX", true],
    ["will not fix, see the ADR", true],
    ["Not a bug: the caller checks it.", true],
    ["false positive", true],
    ["**False positive**, the value is validated above", true],
    ["> `x` is never read.\n\nBy design.", true],
    ["not an issue here", true],
    ["Working as intended", true],
    ["I don't think this is a false positive", false],
    ["won't fixing this break things?", false],
    ["Fixed in the next commit", false],
    ["not a bugfix PR, but ok", false],
    ["", false],
  ])("%j → %s", (body, expected) => {
    expect(isDismissal(body)).toBe(expected);
  });
});

describe("whose thread", () => {
  it.each([
    ["crewbot", "crewbot[bot]", true],
    ["Crewbot", "crewbot", true],
    ["crewbot[bot]", "crewbot[bot]", true],
    ["crewbot-dev", "crewbot[bot]", false],
    [null, "crewbot[bot]", false],
  ])("%s is %s: %s", (login, slug, expected) => {
    expect(sameBot(login, slug)).toBe(expected);
  });

  it("is crewbot's only when crewbot wrote its first comment with a finding marker", () => {
    expect(isOwnThread(thread(), "crewbot[bot]")).toBe(true);
    expect(isOwnThread(thread({ author: "octocat" }), "crewbot[bot]")).toBe(false);
    expect(isOwnThread(thread({ body: "a plain comment by crewbot" }), "crewbot[bot]")).toBe(false);
  });

  it("counts dismissals by people only, each person once", () => {
    const t = thread({ replies: [["octocat", "won't fix"], ["crewbot", "won't fix"], ["octocat", "false positive"], ["hubot", "why?"]] });
    expect(dismissers(t, "crewbot[bot]")).toEqual(["octocat"]);
  });
});

const DIFF = [
  "diff --git a/a.ts b/a.ts",
  "index 1111111..2222222 100644",
  "--- a/a.ts",
  "+++ b/a.ts",
  "@@ -4,3 +4,3 @@",
  " line4",
  "-line5",
  "+line5 fixed",
  " line6",
  "@@ -20,0 +21,2 @@",
  "+added1",
  "+added2",
  "diff --git a/gone.ts b/gone.ts",
  "deleted file mode 100644",
  "index 3333333..0000000",
  "--- a/gone.ts",
  "+++ /dev/null",
  "@@ -1,2 +0,0 @@",
  "-a",
  "-b",
  "diff --git a/old.ts b/new.ts",
  "similarity index 90%",
  "rename from old.ts",
  "rename to new.ts",
  "index 4444444..5555555 100644",
  "--- a/old.ts",
  "+++ b/new.ts",
  "@@ -2,1 +2,1 @@",
  "-two",
  "+TWO",
  "",
].join("\n");

describe("which lines a diff changed", () => {
  const files = parseDiff(DIFF);
  it.each([
    ["the flagged line replaced", "a.ts", 5, 5, true],
    ["a range holding the replaced line", "a.ts", 3, 6, true],
    ["a line next to the change", "a.ts", 6, 6, false],
    ["lines that only moved (added above them)", "a.ts", 22, 25, false],
    ["a deleted file", "gone.ts", 7, 7, true],
    ["a renamed file's changed line, by its old path", "old.ts", 2, 2, true],
    ["a renamed file's other line", "old.ts", 1, 1, false],
    ["a file the diff leaves alone", "other.ts", 1, 10, false],
  ])("%s", (_name, path, from, to, expected) => {
    expect(linesChanged(files, path, from, to)).toBe(expected);
  });

  it("reads a thread's lines on the commit it was made on, RIGHT side only", () => {
    expect(threadLines(thread({ originalStartLine: 3, originalLine: 5 }))).toEqual({ commit: SHA, from: 3, to: 5 });
    expect(threadLines(thread({ diffSide: "LEFT" }))).toBeUndefined();
    expect(threadLines(thread({ originalLine: null }))).toBeUndefined();
  });
});

describe("what a review does with crewbot's threads", () => {
  const own = (id: string, o: Partial<ReviewThread> = {}) => thread({ id, ...o });
  it.each([
    ["open, its lines changed", own("A"), true, false, "resolve"],
    ["open, its lines unchanged", own("A"), false, false, "open"],
    ["open, unknown (its commit is gone)", own("A"), undefined, false, "open"],
    ["resolved by a person", own("A", { isResolved: true }), true, false, "closed"],
    ["dismissed by a writer", own("A"), true, true, "closed"],
    ["someone else's thread", thread({ id: "A", author: "octocat" }), true, false, "ignored"],
  ] as const)("%s → %s", (_name, t, changed, dismissed, expected) => {
    const plan = planThreads([t], "crewbot[bot]", () => changed, () => dismissed);
    const where = plan.resolve.length ? "resolve" : plan.open.length ? "open" : plan.closed.length ? "closed" : "ignored";
    expect(where).toBe(expected);
    if (expected === "resolve") expect(plan.closed).toEqual([t]);
  });
});

describe("planThreads: a resolution counts only when crewbot or a writer made it", () => {
  it.each([
    ["resolved by a writer", true, "closes", undefined, "closed", false],
    ["resolved by someone without write permission", true, "refused", undefined, "open", true],
    ["resolved without the right, then its lines changed", true, "refused", true, "closed", false],
    ["resolved without the right, dismissed by a writer", true, "refused", false, "closed", false],
    ["open", false, "closes", undefined, "open", false],
  ] as const)("%s → %s", (_name, isResolved, resolution, changed, expected, refused) => {
    const t = thread({ id: "A", isResolved });
    const dismissed = _name.includes("dismissed");
    const plan = planThreads([t], "crewbot[bot]", () => changed, () => dismissed, () => resolution);
    expect(plan.closed.length ? "closed" : plan.open.length ? "open" : "none").toBe(expected);
    expect(plan.refused).toEqual(refused ? [t] : []);
    // A resolved thread is never resolved again, even when its lines changed.
    expect(plan.resolve).toEqual([]);
  });
});

describe("a closed thread's finding is not posted again", () => {
  const closed = [thread({ body: `**Critical** _(lines 3–5)_ — \`x\` is never read.\n\n\`\`\`suggestion\nconst y = 1;\n\`\`\`\n\n${MARK}` })];
  it("reads the finding's words back from crewbot's comment", () => {
    expect(threadFindingText(closed[0]!.comments[0]!.body)).toBe("`x` is never read.");
  });

  it.each([
    ["the same words on another line", { path: "a.ts", text: "`x` is never read." }, true],
    ["the same words, other spacing and case", { path: "a.ts", text: "`x`  IS never read." }, true],
    ["another identifier", { path: "a.ts", text: "`X` is never read." }, false],
    ["another file", { path: "b.ts", text: "`x` is never read." }, false],
  ])("%s: %s", (_name, finding, expected) => {
    expect(isThreadFinding(finding, closed)).toBe(expected);
  });

  it("drops findings by words or by the fingerprint the comment carries", () => {
    const f = { path: "c.ts", line: 2, severity: "warning" as const, text: "different words" };
    const byPrint = [thread({ path: "c.ts", body: `**Warning** — elsewhere ${fingerprintMarker(fingerprint(f, "code"))}` })];
    expect(withoutClosedFindings([f], byPrint, () => "code")).toEqual({ kept: [], dropped: 1 });
    expect(withoutClosedFindings([f], closed, () => "code")).toEqual({ kept: [f], dropped: 0 });
  });

  it("describes an open thread for the worker", () => {
    expect(describeThread(thread({ startLine: 3, line: 5 }))).toBe("a.ts:3-5 — `x` is never read.");
  });
});
