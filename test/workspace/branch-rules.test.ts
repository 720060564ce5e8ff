import { chmod, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { adviceFor, BranchRuleError, rulesFromApiError, rulesFromPushError } from "../../src/workspace/branch-rules.js";
import { makeCheckout } from "../../src/workspace/checkout.js";
import { commitStep } from "../../src/workspace/commit.js";
import { MirrorStore } from "../../src/workspace/mirror.js";
import { pushBranch } from "../../src/workspace/push.js";
import { gitSync } from "../helpers/git-repo.js";
import { serve, TOKEN } from "./fixture.js";

/** GitHub's rejections as git prints them (from real pushes, shas shortened). */
const GH013 = [
  "remote: error: GH013: Repository rule violations found for refs/heads/crewbot/issue-1-x.        ",
  "remote: Review all repository rules at https://github.com/o/r/rules?ref=refs%2Fheads%2Fcrewbot%2Fissue-1-x        ",
  "remote: ",
  "remote: - Commits must have verified signatures.        ",
  "remote:   Found 1 violation:        ",
  "remote: ",
  "remote:   027faa7121ee9df79db623e1a2848d2cc88a8dba        ",
  "remote: ",
  "To https://github.com/o/r",
  " ! [remote rejected] HEAD -> crewbot/issue-1-x (push declined due to repository rule violations)",
].join("\n");
const GH013_TWO = [
  "remote: error: GH013: Repository rule violations found for refs/heads/main.",
  "remote: - Changes must be made through a pull request.",
  "remote: ",
  "remote: - Commits must have verified signatures.",
  "remote:   Found 1 violation:",
  "remote:   5cbd07211cca9d7c959f48cd0b10e6b6366c619e",
].join("\n");
const GH006 = [
  "remote: error: GH006: Protected branch update failed for refs/heads/feature.",
  "remote: error: At least 1 approving review is required by reviewers with write access.",
  "To https://github.com/o/r.git",
  " ! [remote rejected] feature -> feature (protected branch hook declined)",
].join("\n");

describe("branch rules in GitHub's answers", () => {
  it.each([
    [GH013, { code: "GH013", rules: ["Commits must have verified signatures."] }],
    [GH013_TWO, { code: "GH013", rules: ["Changes must be made through a pull request.", "Commits must have verified signatures."] }],
    [GH006, { code: "GH006", rules: ["At least 1 approving review is required by reviewers with write access."] }],
    ["! [rejected] x -> x (fetch first)", undefined],
  ])("reads the rules of a push rejection %#", (stderr, expected) => {
    expect(rulesFromPushError(stderr)).toEqual(expected);
  });

  it.each([
    ["Repository rule violations found\n\nCommits must have verified signatures.\n\n", [], ["Commits must have verified signatures."]],
    ["Repository rule violations found", ["Cannot create ref due to creations being restricted."], ["Cannot create ref due to creations being restricted."]],
    ["Repository rule violations found - https://docs.github.com/rest/git/refs#update-a-reference", [], ["a repository rule"]],
    ["Validation Failed", [{ message: "ref already exists" }], undefined],
  ] as const)("reads the rules of a REST answer %#", (message, errors, expected) => {
    expect(rulesFromApiError(message, errors)).toEqual(expected);
  });

  it.each([
    [["Commits must have verified signatures."], /implement\.commits: api/],
    [["Changes must be made through a pull request."], /exclude `crewbot\/\*\*` branches/],
    [["Something new."], /Settings → Rules/],
  ])("advises %#", (rules, expected) => {
    expect(adviceFor(rules)).toMatch(expected);
  });

  it("names another bot's branch, not crewbot's, when that is the one refused", () => {
    expect(adviceFor(["Cannot update this protected ref."], "renovate/lodash-4.x")).toBe(
      "ask a repository admin to exclude the branch `renovate/lodash-4.x` from the rule, or to add the app to the rule's bypass list (Settings → Rules)",
    );
    expect(adviceFor(["Something new."], "crewbot/issue-1-x")).toMatch(/^ask a repository admin to exclude `crewbot\/\*\*` branches/);
  });
});

describe("a push a branch rule refuses", () => {
  it("names the rule and what to do (a GH013 from the server's pre-receive hook, as GitHub sends it)", async () => {
    const served = await serve(TOKEN, { receivePack: true });
    const src = await served.repo("octo", "demo", { "a.txt": "a\n" });
    const hook = path.join(src.dir, ".git", "hooks", "pre-receive");
    const lines = GH013.split("\n").filter((l) => l.startsWith("remote:")).map((l) => l.slice("remote: ".length));
    await writeFile(hook, `#!/bin/sh\ncat >/dev/null\n${lines.map((l) => `echo '${l}' >&2`).join("\n")}\nexit 1\n`);
    await chmod(hook, 0o755);
    const lease = await new MirrorStore({ dataDir: served.dataDir }).sync({ owner: "octo", repo: "demo", cloneUrl: src.cloneUrl, token: TOKEN });
    const co = await makeCheckout({ mirror: lease.path, ref: "main", dest: path.join(served.dataDir, "work"), cloneUrl: src.cloneUrl });
    await lease.release();
    await writeFile(path.join(co.path, "a.txt"), "b\n");
    await commitStep({ checkout: co.path, author: { name: "crewbot[bot]", email: "1+crewbot[bot]@users.noreply.github.com" }, step: "Change a" });

    const error = await pushBranch({ checkout: co.path, cloneUrl: src.cloneUrl, token: async () => TOKEN, branch: "crewbot/issue-1-x", defaultBranch: "main", base: co.sha }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(BranchRuleError);
    expect((error as Error).message).toBe(
      "pushing to crewbot/issue-1-x was refused by a branch rule (GH013): “Commits must have verified signatures”; set `implement.commits: api` in .github/crewbot.yml: GitHub then makes crewbot's commits itself and signs them (Verified)",
    );
    expect(gitSync(src.dir, "branch", "--list", "crewbot/*")).toBe("");
  });
});
