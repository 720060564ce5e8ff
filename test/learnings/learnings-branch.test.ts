import { describe, expect, it } from "vitest";
import { commitLearnings, openOrUpdatePull, type BranchState } from "../../src/learnings/learnings-branch.js";
import { GitHubWriter } from "../../src/report/github-writer.js";
import { PeoplesText } from "../../src/secrets/peoples-text.js";

const D = "d".repeat(40);
const B = "b".repeat(40);
const repo = { owner: "o", repo: "r", defaultBranch: "main" };

/** The real writer over a stand-in that records each request as sent and answers it with a sha (or throws what `fail` says). */
function writer(fail?: (route: string) => unknown) {
  const sent: Array<[string, Record<string, any>]> = [];
  const request = async (route: string, params: Record<string, unknown> = {}) => {
    sent.push([route, params]);
    const error = fail?.(route);
    if (error) throw error;
    return { status: 201, headers: {}, data: { sha: `sha-${sent.length}`, number: 7, html_url: "https://github.com/o/r/pull/7" } };
  };
  return Object.assign(new GitHubWriter({ octokit: { request }, minSpacingMs: 0 }), { sent });
}

describe("commitLearnings", () => {
  it.each<[string, Partial<BranchState>, string[], string]>([
    ["no branch yet: on the default branch's head, the branch created", {}, [D], "POST /repos/{owner}/{repo}/git/refs"],
    ["a branch up to date with it: on the branch's head, moved forward", { branchSha: B, upToDate: true }, [B], "PATCH /repos/{owner}/{repo}/git/refs/{ref}"],
    ["a branch behind it: the branch's head and the default branch's, moved forward", { branchSha: B, upToDate: false }, [B, D], "PATCH /repos/{owner}/{repo}/git/refs/{ref}"],
  ])("%s", async (_what, state, parents, refRoute) => {
    const w = writer();
    await commitLearnings(w, repo, { defaultSha: D, defaultTree: "t".repeat(40), upToDate: false, ...state }, PeoplesText.of("- x\n"), "msg\n");
    expect(w.sent.map(([route]) => route)).toEqual(["POST /repos/{owner}/{repo}/git/trees", "POST /repos/{owner}/{repo}/git/commits", refRoute]);
    expect(w.sent[0]![1]).toEqual({ owner: "o", repo: "r", base_tree: "t".repeat(40), tree: [{ path: ".github/crewbot/learnings.md", mode: "100644", type: "blob", content: "- x\n" }] });
    expect(w.sent[1]![1].parents).toEqual(parents);
    if (refRoute.startsWith("PATCH")) expect(w.sent[2]![1]).toMatchObject({ ref: "heads/crewbot/learnings", force: false });
  });

  it("never writes when the default branch is crewbot/learnings itself", async () => {
    const w = writer();
    await expect(commitLearnings(w, { ...repo, defaultBranch: "crewbot/learnings" }, { defaultSha: D, defaultTree: D, upToDate: false }, PeoplesText.of("x"), "m")).rejects.toThrow(/default branch/);
    expect(w.sent).toEqual([]);
  });
});

describe("openOrUpdatePull", () => {
  it("updates a pull request another proposal opened meanwhile instead of failing or opening a second", async () => {
    const w = writer((route) => (route.startsWith("POST") ? Object.assign(new Error("A pull request already exists"), { status: 422 }) : undefined));
    const pull = await openOrUpdatePull(w, repo, undefined, "body", async () => ({ number: 9, url: "https://github.com/o/r/pull/9" }));
    expect(pull).toEqual({ number: 9, url: "https://github.com/o/r/pull/9", opened: false });
    expect(w.sent.map(([route, p]) => [route, p.pull_number])).toEqual([
      ["POST /repos/{owner}/{repo}/pulls", undefined],
      ["PATCH /repos/{owner}/{repo}/pulls/{pull_number}", 9],
    ]);
  });

  it("opens it ready for review when none is open", async () => {
    const w = writer();
    expect(await openOrUpdatePull(w, repo, undefined, "body", async () => undefined)).toEqual({ number: 7, url: "https://github.com/o/r/pull/7", opened: true });
    expect(w.sent[0]![1]).toMatchObject({ head: "crewbot/learnings", base: "main", draft: false, body: "body" });
  });
});
