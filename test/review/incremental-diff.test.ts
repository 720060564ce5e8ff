/**
 * Incremental reviews after "Update branch": `last..head` holds the base's changes; only what the
 * PR's own diff (`merge-base..head`) has too is kept. Real repositories, real `git diff`, and the
 * kept diff is checked by git itself (`git apply -R --check` against the head).
 */
import { rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { commentablePositions, parseDiff, positionKey, type DiffFile } from "../../src/review/diff-lines.js";
import { withinPullRequest } from "../../src/review/incremental-diff.js";
import { renderFileDiff } from "../../src/review/review-context.js";
import { gitSync, makeRepo } from "../helpers/git-repo.js";
import { inLinearTime } from "../helpers/linear-time.js";

const lines = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i + 1)).join("\n") + "\n";
const A = lines(40, (i) => `a ${i}`);
const edit = (text: string, from: string, to: string) => {
  if (!text.includes(from)) throw new Error(`no ${from}`);
  return text.replace(from, to);
};

const repos: string[] = [];
afterEach(async () => {
  await Promise.all(repos.splice(0).map((r) => rm(r, { recursive: true, force: true })));
});

async function commit(dir: string, branch: string, files: Record<string, string | null>, message: string): Promise<string> {
  gitSync(dir, "checkout", "-q", branch);
  for (const [name, content] of Object.entries(files)) {
    if (content === null) gitSync(dir, "rm", "-q", name);
    else await writeFile(path.join(dir, name), content);
  }
  gitSync(dir, "add", "-A");
  gitSync(dir, "commit", "-q", "-m", message);
  return gitSync(dir, "rev-parse", "HEAD").trim();
}

const diff = (dir: string, from: string, to: string) => parseDiff(gitSync(dir, "diff", "--no-color", "--no-ext-diff", "-M", from, to, "--"));

/**
 * A PR reviewed at `last`; then the base moves (`base` changes), is merged into the PR, and the
 * PR gets one more commit (`pr` changes). Returns both diffs the review reads.
 */
async function updatedBranch(files: Record<string, string>, first: Record<string, string | null>, base: Record<string, string | null>, pr: Record<string, string | null>) {
  const dir = await makeRepo(files);
  repos.push(dir);
  gitSync(dir, "branch", "feature");
  const last = await commit(dir, "feature", first, "the PR's first commit");
  await commit(dir, "main", base, "the base moves on");
  gitSync(dir, "checkout", "-q", "feature");
  gitSync(dir, "-c", "user.name=T", "-c", "user.email=t@example.com", "merge", "-q", "--no-edit", "main");
  const head = Object.keys(pr).length ? await commit(dir, "feature", pr, "the PR's second commit") : gitSync(dir, "rev-parse", "HEAD").trim();
  const mergeBase = gitSync(dir, "merge-base", "main", head).trim();
  return { dir, last, head, since: diff(dir, last, head), full: diff(dir, mergeBase, head) };
}

/** Git's own check that the kept hunks are true to the head: their new side must be in it, line for line. */
async function appliesToHead(dir: string, head: string, files: DiffFile[]): Promise<void> {
  gitSync(dir, "checkout", "-q", "--detach", head);
  const patch = files.map((f) => `diff --git a/${f.oldPath ?? f.path} b/${f.path}\n${renderFileDiff(f)}\n`).join("");
  const file = path.join(dir, ".git", "kept.patch");
  await writeFile(file, patch);
  gitSync(dir, "apply", "-R", "--check", file);
}

const added = (files: DiffFile[]) => files.flatMap((f) => f.hunks.flatMap((h) => h.lines.filter((l) => l.kind !== "context").map((l) => `${f.path} ${l.kind === "add" ? "+" : "-"}${l.text}`)));

describe("withinPullRequest", () => {
  it("leaves out every change the merged base brought in: its files, and its lines in the PR's files", async () => {
    const r = await updatedBranch(
      { "a.txt": A, "b.txt": "b\n" },
      { "a.txt": edit(A, "a 5\n", "pr 5\n") },
      { "a.txt": edit(A, "a 30\n", "base 30\n"), "b.txt": "base b\n", "c.txt": "new in base\n" },
      { "a.txt": edit(edit(edit(A, "a 5\n", "pr 5\n"), "a 30\n", "base 30\n"), "a 12\n", "pr 12\n") },
    );
    // What the review used to read: the base's changes included.
    expect(added(r.since)).toEqual(expect.arrayContaining(["a.txt +base 30", "b.txt +base b", "c.txt +new in base"]));

    const kept = withinPullRequest(r.since, r.full);

    expect(added(kept.files)).toEqual(["a.txt -a 12", "a.txt +pr 12"]);
    expect(kept.leftOut).toEqual({ files: ["b.txt", "c.txt"], lines: 2 });
    expect([...kept.commentable].filter((k) => k.includes("a.txt"))).toContain(positionKey("a.txt", "RIGHT", 12));
    expect(kept.commentable.has(positionKey("a.txt", "RIGHT", 30))).toBe(false);
    await appliesToHead(r.dir, r.head, kept.files);
  });

  it("shows a base line next to a PR change as context, and never as commentable", async () => {
    const r = await updatedBranch(
      { "a.txt": A },
      { "a.txt": edit(A, "a 5\n", "pr 5\n") },
      { "a.txt": edit(A, "a 21\n", "base 21\n") },
      { "a.txt": edit(edit(edit(A, "a 5\n", "pr 5\n"), "a 21\n", "base 21\n"), "a 20\n", "pr 20\n") },
    );

    const kept = withinPullRequest(r.since, r.full);

    expect(added(kept.files)).toEqual(["a.txt -a 20", "a.txt +pr 20"]);
    const shown = kept.files[0]!.hunks.flatMap((h) => h.lines.map((l) => `${l.kind[0]} ${l.text}`));
    expect(shown).toContain("c base 21");
    expect(kept.commentable.has(positionKey("a.txt", "RIGHT", 20))).toBe(true);
    expect(kept.commentable.has(positionKey("a.txt", "RIGHT", 21))).toBe(false);
    expect(kept.commentable.has(positionKey("a.txt", "RIGHT", 19))).toBe(true);
    expect(kept.files[0]).toMatchObject({ additions: 1, deletions: 1 });
    await appliesToHead(r.dir, r.head, kept.files);
  });

  it("keeps the PR's own deletions and drops the base's", async () => {
    const r = await updatedBranch(
      { "a.txt": A },
      { "a.txt": edit(A, "a 5\n", "pr 5\n") },
      { "a.txt": edit(A, "a 30\n", "") },
      { "a.txt": edit(edit(edit(A, "a 5\n", "pr 5\n"), "a 30\n", ""), "a 10\n", "") },
    );

    const kept = withinPullRequest(r.since, r.full);

    expect(added(kept.files)).toEqual(["a.txt -a 10"]);
    expect(kept.leftOut.lines).toBe(1);
    await appliesToHead(r.dir, r.head, kept.files);
  });

  it("interleaved base and PR changes that shift lines (inserts, deletes, next to each other): exactly the PR's new changes, true to the head", async () => {
    const base = [
      ["a 2\n", "a 2\nbase inserted 1\nbase inserted 2\n"],
      ["a 14\n", ""],
      ["a 25\n", "base 25\n"],
    ] as const;
    const mine = [
      ["a 9\n", "a 9\npr inserted\n"],
      ["a 16\n", ""],
      ["a 26\n", "pr 26\n"],
      ["a 38\n", "pr 38a\npr 38b\n"],
    ] as const;
    const apply = (text: string, pairs: ReadonlyArray<readonly [string, string]>) => pairs.reduce((t, [from, to]) => edit(t, from, to), text);
    const r = await updatedBranch({ "a.txt": A }, { "a.txt": edit(A, "a 1\n", "pr 1\n") }, { "a.txt": apply(A, base) }, { "a.txt": apply(apply(edit(A, "a 1\n", "pr 1\n"), base), mine) });

    const kept = withinPullRequest(r.since, r.full);

    expect(added(kept.files)).toEqual([
      "a.txt +pr inserted",
      "a.txt -a 16",
      "a.txt -a 26",
      "a.txt +pr 26",
      "a.txt -a 38",
      "a.txt +pr 38a",
      "a.txt +pr 38b",
    ]);
    expect(kept.leftOut.lines).toBe(5);
    const shown = kept.files[0]!.hunks.flatMap((h) => h.lines.filter((l) => l.text.startsWith("base")).map((l) => l.newLine!));
    expect(shown.length).toBeGreaterThan(0);
    for (const line of shown) expect(kept.commentable.has(positionKey("a.txt", "RIGHT", line))).toBe(false);
    await appliesToHead(r.dir, r.head, kept.files);
  });

  it("a merge of the base and nothing else leaves nothing to review", async () => {
    const r = await updatedBranch({ "a.txt": A }, { "a.txt": edit(A, "a 5\n", "pr 5\n") }, { "a.txt": edit(A, "a 30\n", "base 30\n"), "n.txt": "n\n" }, {});

    const kept = withinPullRequest(r.since, r.full);

    expect(kept.files).toEqual([]);
    expect(kept.leftOut).toEqual({ files: ["a.txt", "n.txt"], lines: 2 });
  });

  it("without a base merge, changes nothing: the same files, hunks and positions as last..head", async () => {
    const dir = await makeRepo({ "a.txt": A, "d.txt": "x\ny\n" });
    repos.push(dir);
    gitSync(dir, "branch", "feature");
    const last = await commit(dir, "feature", { "a.txt": edit(A, "a 5\n", "pr 5\n") }, "one");
    const head = await commit(dir, "feature", { "a.txt": edit(edit(A, "a 5\n", "pr 5\n"), "a 7\n", "pr 7\n"), "d.txt": null, "e.txt": "new\n" }, "two");
    const since = diff(dir, last, head);

    const kept = withinPullRequest(since, diff(dir, gitSync(dir, "merge-base", "main", head).trim(), head));

    expect(kept.files).toEqual(since);
    expect(kept.leftOut).toEqual({ files: [], lines: 0 });
    const right = [...commentablePositions(since)].filter((k) => k.startsWith("RIGHT:"));
    expect([...kept.commentable].sort()).toEqual(right.sort());
  });

  it("a pull request deleting 40,000 identical lines keeps them all, in linear time", () => {
    const deleted = `@@ -1,40000 +0,0 @@\n${"-}\n".repeat(40_000)}`;
    const files = parseDiff(`diff --git a/gen.js b/gen.js\ndeleted file mode 100644\n--- a/gen.js\n+++ /dev/null\n${deleted}`);
    const kept = inLinearTime(() => withinPullRequest(files, files));
    expect(kept.files).toEqual(files);
    expect(kept.leftOut).toEqual({ files: [], lines: 0 });
  });
});
