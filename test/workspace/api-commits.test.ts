import { chmod, mkdir, rm, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GitHubWriter } from "../../src/report/github-writer.js";
import { explainRefError, pushViaApi, type GitDataWriter } from "../../src/workspace/api-commits.js";
import { BranchRuleError } from "../../src/workspace/branch-rules.js";
import { makeCheckout } from "../../src/workspace/checkout.js";
import { commitStep } from "../../src/workspace/commit.js";
import { MirrorStore } from "../../src/workspace/mirror.js";
import { gitSync } from "../helpers/git-repo.js";
import { BEGIN_WITHOUT_END, paddedTo, PEOPLES_TEXT, TOKEN_SHAPES } from "../helpers/peoples-text.js";
import { serve, TOKEN } from "./fixture.js";

const BOT = { name: "crewbot[bot]", email: "123456+crewbot[bot]@users.noreply.github.com" };
const ALICE = { name: "Alice Example", email: "42+alice@users.noreply.github.com" };

/**
 * The real writer over a stand-in of GitHub's Git Data API: records every request as sent (after
 * the writer's redaction) and answers as GitHub does (201 with a sha), strictly checking each body's shape.
 */
function fakeGitHub(fail?: (route: string) => unknown): GitDataWriter & { calls: { route: string; params: Record<string, any> }[] } {
  const calls: { route: string; params: Record<string, any> }[] = [];
  let n = 0;
  const request = async (route: string, params: Record<string, any> = {}) => {
    calls.push({ route, params });
    const failure = fail?.(route);
    if (failure) throw failure;
    expect(params).toMatchObject({ owner: "octo", repo: "demo" });
    if (route.endsWith("/git/blobs")) expect(params.encoding).toBe("base64");
    if (route.endsWith("/git/commits")) {
      // No author or committer: GitHub makes the commit as the app and signs it.
      expect(Object.keys(params).sort()).toEqual(["message", "owner", "parents", "repo", "tree"]);
    }
    n += 1;
    return { status: 201, headers: {}, data: { sha: `${String(n).padStart(2, "0")}`.padEnd(40, "a") } };
  };
  return Object.assign(new GitHubWriter({ octokit: { request }, secrets: [TOKEN], minSpacingMs: 0 }), { calls });
}

async function job(files: Record<string, string>) {
  const served = await serve(TOKEN);
  const src = await served.repo("octo", "demo", files);
  const lease = await new MirrorStore({ dataDir: served.dataDir }).sync({ owner: "octo", repo: "demo", cloneUrl: src.cloneUrl, token: TOKEN });
  const co = await makeCheckout({ mirror: lease.path, ref: "main", dest: path.join(served.dataDir, "work"), cloneUrl: src.cloneUrl });
  await lease.release();
  return { ...served, src, co };
}

describe("pushViaApi (implement.commits: api)", () => {
  it("remakes each commit through blobs, a tree on the previous tree, a commit without author, then creates the ref", async () => {
    const { co, server } = await job({ "README.md": "# demo\n", "old.txt": "gone soon\n", "keep.txt": "keep\n" });
    const binary = Buffer.from([0, 1, 2, 255, 254, 10, 0]);
    await writeFile(path.join(co.path, "run.sh"), "#!/bin/sh\necho hi\n");
    await chmod(path.join(co.path, "run.sh"), 0o755);
    await writeFile(path.join(co.path, "logo.bin"), binary);
    await symlink("README.md", path.join(co.path, "link"));
    await rm(path.join(co.path, "old.txt"));
    const one = await commitStep({ checkout: co.path, author: BOT, coAuthor: ALICE, step: "Add the script" });
    await mkdir(path.join(co.path, "docs"));
    await writeFile(path.join(co.path, "docs", "a.md"), "a\n");
    await writeFile(path.join(co.path, "copy.sh"), "#!/bin/sh\necho hi\n"); // same content as run.sh: no second blob
    const two = await commitStep({ checkout: co.path, author: BOT, step: "Add docs" });
    const github = fakeGitHub();
    const requestsBefore = server.requests.length;

    const result = await pushViaApi({ checkout: co.path, owner: "octo", repo: "demo", writer: github, base: co.sha, branch: "crewbot/issue-1-x", defaultBranch: "main", exists: false });

    const baseTree = gitSync(co.path, "rev-parse", `${co.sha}^{tree}`).trim();
    const sha = (n: number) => String(n).padStart(2, "0").padEnd(40, "a");
    const b64 = (text: string | Buffer) => Buffer.from(text).toString("base64");
    expect(github.calls.map((c) => c.route)).toEqual([
      "POST /repos/{owner}/{repo}/git/blobs", // link (README.md as its target)
      "POST /repos/{owner}/{repo}/git/blobs", // logo.bin
      "POST /repos/{owner}/{repo}/git/blobs", // run.sh
      "POST /repos/{owner}/{repo}/git/trees",
      "POST /repos/{owner}/{repo}/git/commits",
      "POST /repos/{owner}/{repo}/git/blobs", // docs/a.md; copy.sh reuses run.sh's blob
      "POST /repos/{owner}/{repo}/git/trees",
      "POST /repos/{owner}/{repo}/git/commits",
      "POST /repos/{owner}/{repo}/git/refs",
    ]);
    const [link, logo, run, tree1, commit1, doc, tree2, commit2, ref] = github.calls.map((c) => c.params);
    expect(link!.content).toBe(b64("README.md"));
    expect(Buffer.from(logo!.content, "base64")).toEqual(binary);
    expect(run!.content).toBe(b64("#!/bin/sh\necho hi\n"));
    expect(tree1).toEqual({
      owner: "octo",
      repo: "demo",
      base_tree: baseTree,
      tree: [
        { path: "link", mode: "120000", type: "blob", sha: sha(1) },
        { path: "logo.bin", mode: "100644", type: "blob", sha: sha(2) },
        { path: "old.txt", mode: "100644", type: "blob", sha: null },
        { path: "run.sh", mode: "100755", type: "blob", sha: sha(3) },
      ],
    });
    expect(commit1).toEqual({
      owner: "octo",
      repo: "demo",
      message: "Add the script\n\nCo-authored-by: Alice Example <42+alice@users.noreply.github.com>\n",
      tree: sha(4),
      parents: [co.sha],
    });
    expect(doc!.content).toBe(b64("a\n"));
    expect(tree2).toEqual({
      owner: "octo",
      repo: "demo",
      base_tree: sha(4),
      tree: [
        { path: "copy.sh", mode: "100644", type: "blob", sha: sha(3) },
        { path: "docs/a.md", mode: "100644", type: "blob", sha: sha(6) },
      ],
    });
    expect(commit2).toEqual({ owner: "octo", repo: "demo", message: "Add docs\n", tree: sha(7), parents: [sha(5)] });
    expect(ref).toEqual({ owner: "octo", repo: "demo", ref: "refs/heads/crewbot/issue-1-x", sha: sha(8) });
    expect(result).toEqual({ pushed: true, sha: sha(8), remade: { [one.sha!]: sha(5), [two.sha!]: sha(8) } });
    // Nothing went over git: no request reached the git server.
    expect(server.requests.length).toBe(requestsBefore);
  });

  it("sends the repository's files and paths byte for byte: token shapes, a key's BEGIN line, a name shaped like a token", async () => {
    const { co } = await job({ "README.md": "# demo\n" });
    const notes = paddedTo(PEOPLES_TEXT, 70_000);
    const key = `${BEGIN_WITHOUT_END}\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n`;
    await mkdir(path.join(co.path, "fixtures"));
    await writeFile(path.join(co.path, "fixtures", `${TOKEN_SHAPES[0]}.md`), notes);
    await writeFile(path.join(co.path, "fixtures", "AKIAIOSFODNN7EXAMPLE"), key);
    await commitStep({ checkout: co.path, author: BOT, step: "Add fixtures" });
    const github = fakeGitHub();
    await pushViaApi({ checkout: co.path, owner: "octo", repo: "demo", writer: github, base: co.sha, branch: "crewbot/issue-2-x", defaultBranch: "main", exists: false });
    const blobs = github.calls.filter((c) => c.route.endsWith("/git/blobs")).map((c) => Buffer.from(c.params.content, "base64").toString());
    expect(blobs.sort()).toEqual([key, notes].sort());
    const tree = github.calls.find((c) => c.route.endsWith("/git/trees"))!.params.tree.map((e: { path: string }) => e.path);
    expect(tree).toEqual(["fixtures/AKIAIOSFODNN7EXAMPLE", `fixtures/${TOKEN_SHAPES[0]}.md`]);
  });

  it("refuses to send a file holding the installation token, rather than change it", async () => {
    const { co } = await job({ "README.md": "# demo\n" });
    await writeFile(path.join(co.path, "leak.txt"), `token=${TOKEN}\n`);
    await commitStep({ checkout: co.path, author: BOT, step: "Leak" });
    const github = fakeGitHub();
    const options = { checkout: co.path, owner: "octo", repo: "demo", writer: github, base: co.sha, branch: "crewbot/issue-3-x", defaultBranch: "main", exists: false };
    await expect(pushViaApi(options)).rejects.toThrow(/holds one of crewbot's own secrets/);
    expect(github.calls).toEqual([]);
  });

  it("moves an existing branch without force, and sends nothing when nothing was committed", async () => {
    const { co } = await job({ "a.txt": "a\n" });
    const github = fakeGitHub();
    const options = { checkout: co.path, owner: "octo", repo: "demo", writer: github, base: co.sha, branch: "feature", prHeadBranch: "feature", defaultBranch: "main", exists: true };
    expect(await pushViaApi(options)).toEqual({ pushed: false, sha: co.sha, remade: {} });
    expect(github.calls).toEqual([]);

    await writeFile(path.join(co.path, "a.txt"), "b\n");
    await commitStep({ checkout: co.path, author: BOT, step: "Change a" });
    await pushViaApi(options);
    expect(github.calls.at(-1)).toEqual({
      route: "PATCH /repos/{owner}/{repo}/git/refs/{ref}",
      params: { owner: "octo", repo: "demo", ref: "heads/feature", sha: "03".padEnd(40, "a"), force: false },
    });
    await expect(pushViaApi({ ...options, branch: "main" })).rejects.toThrow(/default branch/);
    expect(github.calls).toHaveLength(4);
  });

  it("names the rule when GitHub refuses the ref update", async () => {
    const { co } = await job({ "a.txt": "a\n" });
    await writeFile(path.join(co.path, "a.txt"), "b\n");
    await commitStep({ checkout: co.path, author: BOT, step: "Change a" });
    const refused = Object.assign(new Error("Repository rule violations found\n\nChanges must be made through a pull request.\n\n"), {
      status: 422,
      response: { data: { message: "Repository rule violations found\n\nChanges must be made through a pull request.\n\n", documentation_url: "https://docs.github.com/rest/git/refs#create-a-reference" } },
    });
    const github = fakeGitHub((route) => (route.endsWith("/git/refs") ? refused : undefined));
    const error = await pushViaApi({ checkout: co.path, owner: "octo", repo: "demo", writer: github, base: co.sha, branch: "crewbot/x", defaultBranch: "main", exists: false }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(BranchRuleError);
    expect((error as Error).message).toBe(
      "updating crewbot/x was refused by a branch rule (HTTP 422): “Changes must be made through a pull request”; ask a repository admin to exclude `crewbot/**` branches from the rule, or to add the app to the rule's bypass list (Settings → Rules)",
    );
  });
});

describe("explainRefError", () => {
  const err = (status: number, message: string) => Object.assign(new Error(message), { status, response: { data: { message } } });
  it.each([
    [err(422, "Update is not a fast forward"), /^updating b was rejected: the branch has commits crewbot does not have/],
    [err(409, "Repository rule violations found\n\nCommits must have verified signatures.\n\n"), /“Commits must have verified signatures”; set `implement.commits: api`/],
    [err(422, "Reference cannot be updated"), /^updating b was refused by a branch rule \(HTTP 422\): “Reference cannot be updated”; ask a repository admin/],
    [err(403, "Resource not accessible by integration - https://docs.github.com/rest"), /HTTP 403: Resource not accessible by integration\); does the app have contents: write/],
    [err(403, "You have exceeded a secondary rate limit. Please wait a few minutes before you try again."), /^updating b failed: GitHub's rate limit held the writes back too long \(You have exceeded a secondary rate limit/],
    [new Error("socket hang up"), /^socket hang up$/],
  ])("%#: %s", (error, expected) => {
    expect(explainRefError(error, "b").message).toMatch(expected);
  });
});
