/** Which pull request branches ci-fix rounds work on: crewbot's own, and the branches `implement.ciFix.branches` lists, never a fork's. */
import { describe, expect, it } from "vitest";
import { branchMatches, ciFixBranchRefusal } from "../../src/jobs/ci-fix-branches.js";

const BOTS = ["renovate/**", "dependabot/**"];
const NONE = (ref: string) => `branch ${ref} is not one of crewbot's (implement.ciFix.branches names none)`;
const UNLISTED = (ref: string) => `branch ${ref} is not one of crewbot's and matches none of implement.ciFix.branches`;

describe("ciFixBranchRefusal", () => {
  it.each<[string, string, boolean, string[], string | undefined]>([
    ["crewbot's own branch, no globs", "crewbot/issue-1-greet", true, [], undefined],
    ["crewbot's own branch, other globs", "crewbot/issue-1-greet", true, ["renovate/**"], undefined],
    ["a Renovate branch with its glob", "renovate/foo", true, ["renovate/**"], undefined],
    ["a Renovate branch without globs", "renovate/foo", true, [], NONE("renovate/foo")],
    ["a Renovate branch, only Dependabot's glob", "renovate/foo", true, ["dependabot/**"], UNLISTED("renovate/foo")],
    ["a fork's branch the glob matches", "renovate/foo", false, ["renovate/**"], "branch renovate/foo is a fork's"],
    ["a fork's branch named like crewbot's", "crewbot/issue-1-greet", false, [], "branch crewbot/issue-1-greet is a fork's"],
    ["Dependabot's nested branch", "dependabot/npm_and_yarn/x", true, ["dependabot/**"], undefined],
    ["Dependabot's nested branch, two globs", "dependabot/npm_and_yarn/lodash-4.17.21", true, BOTS, undefined],
    ["`*` does not cross a `/`", "dependabot/npm_and_yarn/x", true, ["dependabot/*"], UNLISTED("dependabot/npm_and_yarn/x")],
    ["a glob that matches only a prefix", "renovate/foo", true, ["renovate"], UNLISTED("renovate/foo")],
    ["a glob that matches only a suffix", "my-renovate/foo", true, ["renovate/**"], UNLISTED("my-renovate/foo")],
    ["a glob naming a segment deeper down", "team/renovate/foo", true, ["renovate/**"], UNLISTED("team/renovate/foo")],
    ["a glob within one segment", "renovate-lodash", true, ["renovate-*"], undefined],
    ["a person's branch", "feature-x", true, BOTS, UNLISTED("feature-x")],
  ])("%s", (_what, ref, sameRepository, globs, refusal) => {
    expect(ciFixBranchRefusal({ ref, sameRepository }, globs)).toBe(refusal);
  });
});

describe("branchMatches", () => {
  it("matches nothing without globs, and the whole name with them", () => {
    expect(branchMatches("renovate/foo", [])).toBe(false);
    expect(branchMatches("renovate/foo", ["renovate/*"])).toBe(true);
    expect(branchMatches("renovate/foo/bar", ["renovate/**"])).toBe(true);
    expect(branchMatches("renovate/.hidden", ["renovate/**"])).toBe(true);
    expect(branchMatches("renovatex/foo", ["renovate/**"])).toBe(false);
  });
});
