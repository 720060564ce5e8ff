import { execFile } from "node:child_process";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { uniqueIssueBranch } from "../../src/workspace/branch.js";
import { makeCheckout } from "../../src/workspace/checkout.js";
import { commitStep } from "../../src/workspace/commit.js";
import { MirrorStore } from "../../src/workspace/mirror.js";
import { assertPushable, pushBranch } from "../../src/workspace/push.js";
import { gitSync, tempDir } from "../helpers/git-repo.js";
import { commit, filesContaining, serve, TOKEN } from "./fixture.js";

const BOT = { name: "crewbot[bot]", email: "123456+crewbot[bot]@users.noreply.github.com" };
const ALICE = { name: "Alice Example", email: "42+alice@users.noreply.github.com" };
const b64 = Buffer.from(`x-access-token:${TOKEN}`).toString("base64");

/** A served repository that accepts pushes, its mirror, and a job checkout of `main` with `origin` set. */
async function job(files: Record<string, string>) {
  const served = await serve(TOKEN, { receivePack: true });
  const src = await served.repo("octo", "demo", files);
  const lease = await new MirrorStore({ dataDir: served.dataDir }).sync({ owner: "octo", repo: "demo", cloneUrl: src.cloneUrl, token: TOKEN });
  const co = await makeCheckout({ mirror: lease.path, ref: "main", dest: path.join(served.dataDir, "jobs", "j1", "work"), cloneUrl: src.cloneUrl });
  await lease.release();
  const tokenCalls: number[] = [];
  const token = async () => {
    tokenCalls.push(Date.now());
    return TOKEN;
  };
  const remote = { checkout: co.path, cloneUrl: src.cloneUrl, token, defaultBranch: "main" };
  return { ...served, src, co, remote, tokenCalls };
}

async function write(dir: string, files: Record<string, string>) {
  for (const [name, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), content);
  }
}

const remoteHas = (dir: string, branch: string) => gitSync(dir, "branch", "--list", branch).trim() !== "";

describe("pushBranch", () => {
  it("pushes one commit per step to a new crewbot branch, as the bot, with the token in no file", async () => {
    const { server, src, co, remote, dataDir } = await job({ "README.md": "# demo\n" });
    const branch = await uniqueIssueBranch({ ...remote, issue: 4, title: "Add login + logout" });
    expect(branch).toBe("crewbot/issue-4-add-login-logout");

    await write(co.path, { "src/login.ts": "export const login = 1;\n" });
    const one = await commitStep({ checkout: co.path, author: BOT, coAuthor: ALICE, step: "Add login" });
    expect(await pushBranch({ ...remote, branch, base: co.sha })).toEqual({ pushed: true, sha: one.sha });
    await write(co.path, { "src/logout.ts": "export const logout = 1;\n", ".github/workflows/ci.yml": "on: push\n" });
    const two = await commitStep({ checkout: co.path, author: BOT, coAuthor: ALICE, step: "Add logout" });
    expect(two.refused).toEqual([".github/workflows/ci.yml"]);
    expect(await pushBranch({ ...remote, branch, base: co.sha })).toEqual({ pushed: true, sha: two.sha });

    // What the remote holds: the files, two commits on top of main, each by the bot with the trailer.
    expect(gitSync(src.dir, "rev-parse", branch).trim()).toBe(two.sha);
    expect(gitSync(src.dir, "show", `${branch}:src/login.ts`)).toBe("export const login = 1;\n");
    expect(gitSync(src.dir, "show", `${branch}:src/logout.ts`)).toBe("export const logout = 1;\n");
    expect(gitSync(src.dir, "ls-tree", "-r", "--name-only", branch)).toBe("README.md\nsrc/login.ts\nsrc/logout.ts\n");
    expect(gitSync(src.dir, "log", "--format=%s|%an|%ae|%cn", `main..${branch}`)).toBe(
      `Add logout|${BOT.name}|${BOT.email}|${BOT.name}\nAdd login|${BOT.name}|${BOT.email}|${BOT.name}\n`,
    );
    expect(gitSync(src.dir, "log", "--format=%(trailers:key=Co-authored-by,valueonly,separator=)", `main..${branch}`)).toBe(
      `Alice Example <${ALICE.email}>\n`.repeat(2),
    );
    expect(gitSync(src.dir, "rev-parse", "main").trim()).toBe(co.sha);

    // Every request carried the header; the token is in no file of the checkout (config, logs,
    // FETCH_HEAD, refs) nor the data dir, in no commit, and not in the remote's history.
    const pushes = server.requests.filter((r) => r.url.includes("git-receive-pack"));
    expect(pushes.length).toBeGreaterThan(0);
    expect(server.requests.every((r) => r.authorized)).toBe(true);
    for (const secret of [TOKEN, b64]) {
      expect(await filesContaining(dataDir, secret)).toEqual([]);
      expect(await filesContaining(src.dir, secret)).toEqual([]);
      expect(gitSync(src.dir, "log", "-p", "--format=%H%n%B", branch)).not.toContain(secret);
    }
    expect(gitSync(co.path, "config", "--local", "--list")).not.toMatch(/extraheader|token/i);
    expect(gitSync(co.path, "remote", "-v")).toBe(`origin\t${src.cloneUrl} (fetch)\norigin\t${src.cloneUrl} (push)\n`);
  });

  it("refuses the default branch and any branch not made by crewbot before any git command", async () => {
    const { server, src, co, remote, tokenCalls } = await job({ "a.txt": "a\n" });
    await write(co.path, { "b.txt": "b\n" });
    await commitStep({ checkout: co.path, author: BOT, step: "Add b" });
    const before = server.requests.length;
    const mainBefore = gitSync(src.dir, "rev-parse", "main");

    await expect(pushBranch({ ...remote, branch: "main" })).rejects.toThrow(/default branch/);
    await expect(pushBranch({ ...remote, branch: "feature/x" })).rejects.toThrow(/crewbot\/… branches/);
    await expect(pushBranch({ ...remote, branch: "refs/heads/crewbot/x" })).rejects.toThrow(/not a ref/);
    await expect(pushBranch({ ...remote, branch: "crewbot/../main" })).rejects.toThrow(/invalid branch/);
    await expect(pushBranch({ ...remote, branch: "" })).rejects.toThrow(/must be named/);
    // The PR's head branch is allowed explicitly — but never when it is the default branch.
    await expect(pushBranch({ ...remote, branch: "main", prHeadBranch: "main" })).rejects.toThrow(/default branch/);
    await expect(pushBranch({ ...remote, branch: "trunk", defaultBranch: "trunk", prHeadBranch: "trunk" })).rejects.toThrow(/default branch/);
    expect(() => assertPushable({ branch: "crewbot/issue-1-x", defaultBranch: "crewbot/issue-1-x" })).toThrow(/default branch/);

    expect(server.requests.length).toBe(before);
    expect(tokenCalls).toEqual([]);
    expect(gitSync(src.dir, "rev-parse", "main")).toBe(mainBefore);
    expect(remoteHas(src.dir, "feature/x")).toBe(false);

    // The PR's own head branch, given explicitly, is pushed to (fast-forward).
    gitSync(src.dir, "branch", "feature/x", "main");
    expect((await pushBranch({ ...remote, branch: "feature/x", prHeadBranch: "feature/x" })).pushed).toBe(true);
    expect(gitSync(src.dir, "log", "-1", "--format=%s", "feature/x")).toBe("Add b\n");
  });

  it("never force-pushes: a branch that moved on is an error and stays as it is", async () => {
    const { src, co, remote } = await job({ "a.txt": "a\n" });
    const branch = "crewbot/issue-9-race";
    await write(co.path, { "b.txt": "b\n" });
    await commitStep({ checkout: co.path, author: BOT, step: "Add b" });
    await pushBranch({ ...remote, branch });
    // Someone else pushes to the branch meanwhile.
    gitSync(src.dir, "checkout", "-q", branch);
    const theirs = await commit(src.dir, { "theirs.txt": "t\n" }, "their commit");
    gitSync(src.dir, "checkout", "-q", "main");
    await write(co.path, { "c.txt": "c\n" });
    await commitStep({ checkout: co.path, author: BOT, step: "Add c" });
    await expect(pushBranch({ ...remote, branch })).rejects.toThrow(/never force-pushes/);
    expect(gitSync(src.dir, "rev-parse", branch).trim()).toBe(theirs);
  });

  it("pushes only what is committed (partial work), and nothing when nothing was committed", async () => {
    const { server, src, co, remote, tokenCalls } = await job({ "a.txt": "a\n" });
    const branch = "crewbot/issue-3-partial";
    expect(await pushBranch({ ...remote, branch, base: co.sha })).toEqual({ pushed: false, sha: co.sha });
    expect(server.requests.filter((r) => r.url.includes("receive-pack"))).toEqual([]);
    expect(tokenCalls).toEqual([]);
    expect(remoteHas(src.dir, branch)).toBe(false);

    await write(co.path, { "done.txt": "step 1\n" });
    const done = await commitStep({ checkout: co.path, author: BOT, step: "Step 1" });
    await write(co.path, { "half.txt": "step 2, unfinished\n" }); // the job fails here
    expect(await pushBranch({ ...remote, branch, base: co.sha })).toEqual({ pushed: true, sha: done.sha });
    expect(gitSync(src.dir, "ls-tree", "--name-only", branch)).toBe("a.txt\ndone.txt\n");
  });

  it("ignores hooks and a worker's own push: nothing of it reaches the remote", async () => {
    const { src, co, remote } = await job({ "a.txt": "a\n" });
    const marker = path.join(await tempDir(), "hook-ran");
    const hooks = path.join(co.path, ".git", "hooks");
    await mkdir(hooks, { recursive: true });
    for (const name of ["pre-push", "pre-commit", "reference-transaction", "push-to-checkout"]) {
      await writeFile(path.join(hooks, name), `#!/bin/sh\necho ${name} >> ${marker}\nexit 1\n`);
      await chmod(path.join(hooks, name), 0o755);
    }
    gitSync(co.path, "config", "core.hooksPath", hooks);
    await write(co.path, { "b.txt": "b\n" });
    await commitStep({ checkout: co.path, author: BOT, step: "Add b" });

    // The worker has no token: its push is refused by the server.
    // (Asynchronously: the test server runs in this process.)
    const workerPush = (ref: string) =>
      promisify(execFile)("git", ["-c", "core.hooksPath=/dev/null", "push", "origin", `HEAD:refs/heads/${ref}`], {
        cwd: co.path,
        env: { PATH: process.env.PATH, HOME: co.path, GIT_TERMINAL_PROMPT: "0" },
        timeout: 15_000,
      });
    await expect(workerPush("crewbot/sneaky")).rejects.toThrow(/Authentication failed|could not read Username/);
    await expect(workerPush("main")).rejects.toThrow(/Authentication failed|could not read Username/);
    expect(remoteHas(src.dir, "crewbot/sneaky")).toBe(false);

    await pushBranch({ ...remote, branch: "crewbot/issue-1-hooks" });
    expect(remoteHas(src.dir, "crewbot/issue-1-hooks")).toBe(true);
    expect(await filesContaining(path.dirname(marker), "")).toEqual([]);
  });

  it("refuses to use the token when the checkout's config could redirect it", async () => {
    const { server, co, remote, tokenCalls } = await job({ "a.txt": "a\n" });
    await write(co.path, { "b.txt": "b\n" });
    await commitStep({ checkout: co.path, author: BOT, step: "Add b" });
    const before = server.requests.length;
    for (const [key, value] of [
      ["url.http://evil.example/.insteadOf", "http://127.0.0.1"],
      ["http.proxy", "http://evil.example:8080"],
      ["include.path", "/tmp/elsewhere"],
    ] as const) {
      gitSync(co.path, "config", key, value);
      await expect(pushBranch({ ...remote, branch: "crewbot/issue-1-x" })).rejects.toThrow(/refusing to use the installation token/);
      gitSync(co.path, "config", "--unset", key);
    }
    expect(server.requests.length).toBe(before);
    expect(tokenCalls).toEqual([]);
  });
});
