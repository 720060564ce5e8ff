/** Which check suites are crewbot's business: decided from the payload, then from GitHub's view of the pull request. */
import { describe, expect, it } from "vitest";
import { ciFixJob, decideCheckSuite, pullRefusal, type CheckSuitePayload, type PullData } from "../../src/triggers/check-suite.js";
import { checkSuiteCompleted } from "../fixtures/check-suite.js";

const SHA = "a".repeat(40);
const suite = (o: Record<string, unknown> = {}) => checkSuiteCompleted({ suiteId: 5, headSha: SHA, headBranch: "crewbot/issue-3-x", ...o }) as unknown as CheckSuitePayload;

describe("decideCheckSuite", () => {
  it.each<[string, CheckSuitePayload, string]>([
    ["a requested suite", { ...suite(), action: "requested" }, "action requested"],
    ["a green suite", suite({ conclusion: "success" }), "the suite's conclusion is success"],
    ["a cancelled suite", suite({ conclusion: "cancelled" }), "the suite's conclusion is cancelled"],
    ["a suite without a conclusion", suite({ conclusion: null }), "the suite's conclusion is none"],
    ["crewbot's own suite, by id", suite({ app: { id: 1, slug: "renamed" } }), "the suite is crewbot's own"],
    ["a suite without a branch", suite({ headBranch: null }), "the suite names no branch (a fork's)"],
    ["a fork's pull request", suite({ fork: true }), "no pull request of this repository has this commit as its head"],
    ["no installation", { ...suite(), installation: undefined }, "no installation in the payload"],
  ])("%s: ignored", (_what, payload, reason) => {
    expect(decideCheckSuite(payload, { id: 1 })).toEqual({ action: "ignore", reason });
  });

  it("recognises crewbot's own suite by slug when the app id is not known", () => {
    expect(decideCheckSuite(suite({ app: { id: 99, slug: "crewbot" } }), { slug: "crewbot" })).toEqual({ action: "ignore", reason: "the suite is crewbot's own" });
  });

  it("skips a listed pull request whose head is another commit or another repository", () => {
    const payload = suite();
    payload.check_suite.pull_requests = [
      { ...payload.check_suite.pull_requests![0]!, number: 7, head: { ...payload.check_suite.pull_requests![0]!.head, sha: "b".repeat(40) } },
      { ...payload.check_suite.pull_requests![0]!, number: 8, head: { ...payload.check_suite.pull_requests![0]!.head, repo: { id: 12345 } } },
      { ...payload.check_suite.pull_requests![0]!, number: 9 },
    ];
    expect(decideCheckSuite(payload, { id: 1 })).toEqual({ action: "verify", number: 9, branch: "crewbot/issue-3-x" });
  });

  it.each(["failure", "timed_out"])("a %s suite of another app on crewbot's branch is verified", (conclusion) => {
    expect(decideCheckSuite(suite({ conclusion }), { id: 1 })).toEqual({ action: "verify", number: 2, branch: "crewbot/issue-3-x" });
  });

  it("verifies another branch of this repository too: whether it counts needs the repository's config", () => {
    expect(decideCheckSuite(suite({ headBranch: "renovate/lodash-4.x" }), { id: 1 })).toEqual({ action: "verify", number: 2, branch: "renovate/lodash-4.x" });
  });
});

describe("pullRefusal and the job", () => {
  const pr = (o: Partial<PullData> & { headRepo?: string | null } = {}): PullData => ({
    number: 2,
    state: "open",
    title: "T",
    body: "B",
    user: { login: "crewbot[bot]" },
    head: { ref: "crewbot/issue-3-x", sha: SHA, repo: o.headRepo === null ? null : { full_name: o.headRepo ?? "Codertocat/Hello-World" } },
    base: { repo: { full_name: "Codertocat/Hello-World" } },
    ...o,
  });
  it.each<[string, PullData, string | undefined]>([
    ["open, same repository, that head", pr(), undefined],
    ["closed", pr({ state: "closed" }), "pull request #2 is closed"],
    ["from a fork", pr({ headRepo: "mallory/Hello-World" }), "pull request #2 comes from a fork"],
    ["from a deleted fork", pr({ headRepo: null }), "pull request #2 comes from a fork"],
    ["moved on", pr({ head: { ref: "crewbot/issue-3-x", sha: "c".repeat(40), repo: { full_name: "Codertocat/Hello-World" } } }), "pull request #2's head moved on to ccccccc"],
    ["renamed branch", pr({ head: { ref: "feature", sha: SHA, repo: { full_name: "Codertocat/Hello-World" } } }), "pull request #2's branch feature is not one of crewbot's (implement.ciFix.branches names none)"],
  ])("%s", (_what, data, refusal) => {
    expect(pullRefusal(data, suite(), [])).toBe(refusal);
  });

  const renovate = (headRepo = "Codertocat/Hello-World") => pr({ user: { login: "renovate[bot]" }, head: { ref: "renovate/lodash-4.x", sha: SHA, repo: { full_name: headRepo } } });
  it.each<[string, PullData, string[], string | undefined]>([
    ["a Renovate branch the globs list", renovate(), ["renovate/**"], undefined],
    ["a Renovate branch without globs", renovate(), [], "pull request #2's branch renovate/lodash-4.x is not one of crewbot's (implement.ciFix.branches names none)"],
    ["a Renovate branch the globs do not list", renovate(), ["dependabot/**"], "pull request #2's branch renovate/lodash-4.x is not one of crewbot's and matches none of implement.ciFix.branches"],
    ["a fork's branch the globs list", renovate("mallory/Hello-World"), ["renovate/**"], "pull request #2 comes from a fork"],
  ])("with implement.ciFix.branches: %s", (_what, data, branches, refusal) => {
    expect(pullRefusal(data, suite({ headBranch: "renovate/lodash-4.x" }), branches)).toBe(refusal);
  });

  it("queues a ci-fix that supersedes a waiting one, carrying the suite", () => {
    const job = ciFixJob(suite({ conclusion: "timed_out" }), pr(), "delivery-1", 0);
    expect(job).toMatchObject({
      kind: "ci-fix",
      group: "ci-fix",
      supersede: true,
      target: { owner: "Codertocat", repo: "Hello-World", number: 2, isPullRequest: true },
      ciFix: { suiteId: 5, headSha: SHA, headRef: "crewbot/issue-3-x", conclusion: "timed_out", app: "github-actions" },
      subject: { title: "T", body: "B", author: "crewbot[bot]" },
    });
  });
});
