/**
 * Attack: make crewbot's own git commands run a program of the repository's choosing —
 * `.gitattributes` naming `filter`/`diff`/`merge` drivers, config a repository carries in its tree
 * (`.gitconfig`, `.lfsconfig`, an embedded bare repository, a `.git/config` entry), `.gitmodules`
 * with `update = !cmd`, and a nested repository planted in the checkout (as the sandboxed bash
 * could) with fsmonitor, hooks and filter drivers. Drivers are also defined where an operator's
 * git would find them (~/.gitconfig), which crewbot's workspace commands must not read.
 * No command may run during clone, checkout, add, commit, diff or push: marker files prove it.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseDiff } from "../../src/review/diff-lines.js";
import { commitStep } from "../../src/workspace/commit.js";
import { diffBetween, mergeBase } from "../../src/workspace/diff.js";
import { pushBranch } from "../../src/workspace/push.js";
import { serve } from "../workspace/fixture.js";
import { tempDir } from "../helpers/git-repo.js";
import { hostileRepo, makeHost, runJobPath, srcGit, TOKEN, type Host } from "./repo-hostile.js";

const BOT = { name: "crewbot[bot]", email: "1+crewbot[bot]@users.noreply.github.com" };

/** Every config key that names a program, each creating its own marker. */
function evilConfig(host: Host): string {
  return [
    "[filter \"evil\"]",
    `\tclean = ${host.touch("filter-clean")}; cat`,
    `\tsmudge = ${host.touch("filter-smudge")}; cat`,
    `\tprocess = ${host.touch("filter-process")}`,
    "\trequired = true",
    "[diff \"evil\"]",
    `\tcommand = ${host.touch("diff-command")}`,
    `\ttextconv = ${host.touch("diff-textconv")}; cat`,
    "[merge \"evil\"]",
    `\tdriver = ${host.touch("merge-driver")}`,
    "[core]",
    `\tfsmonitor = ${host.touch("fsmonitor")}`,
    `\tsshCommand = ${host.touch("ssh-command")}`,
    `\tpager = ${host.touch("pager")}`,
    `\teditor = ${host.touch("editor")}`,
    `\taskPass = ${host.touch("askpass")}`,
    `\thooksPath = ${host.hooks}`,
    "[diff]",
    `\texternal = ${host.touch("diff-external")}`,
    "[credential]",
    `\thelper = !${host.touch("credential-helper")}`,
    "[gpg]",
    `\tprogram = ${host.touch("gpg")}`,
    "[commit]",
    "\tgpgSign = true",
    "[include]",
    `\tpath = ${host.markers}/never-included`,
    "",
  ].join("\n");
}

/** Hooks that would leave a marker, for every hook crewbot's commands could trigger. */
async function evilHooks(dir: string, host: Host): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const hook of ["pre-commit", "prepare-commit-msg", "commit-msg", "post-commit", "post-checkout", "pre-push", "reference-transaction", "post-index-change"]) {
    await writeFile(path.join(dir, hook), `#!/bin/sh\n${host.touch(`hook-${hook}`)}\n`, { mode: 0o755 });
  }
}

const ATTRIBUTES = "* filter=evil diff=evil merge=evil\n*.md text filter=lfs diff=lfs merge=lfs\n";

let savedHome: string | undefined;
beforeEach(() => {
  savedHome = process.env.HOME;
});
afterEach(() => {
  process.env.HOME = savedHome;
});

/** An operator HOME whose ~/.gitconfig and XDG config define every evil driver: crewbot must not read it. */
async function hostileHome(host: Host): Promise<string> {
  const home = await tempDir("crewbot-home-");
  await writeFile(path.join(home, ".gitconfig"), evilConfig(host));
  await mkdir(path.join(home, ".config", "git"), { recursive: true });
  await writeFile(path.join(home, ".config", "git", "config"), evilConfig(host));
  await writeFile(path.join(home, ".config", "git", "attributes"), ATTRIBUTES);
  await evilHooks(host.hooks, host);
  return home;
}

describe("repository-provided drivers, config and hooks never run", () => {
  it("clone, checkout, commit (with a refused workflow restored), push and review diff run no command of the repository", async () => {
    const host = await makeHost();
    const served = await serve(TOKEN, { receivePack: true });
    const repo = await hostileRepo(
      "drivers",
      {
        ".gitattributes": ATTRIBUTES,
        ".gitconfig": evilConfig(host),
        ".lfsconfig": `[lfs]\n\turl = http://127.0.0.1:1/steal\n[core]\n\tsshCommand = ${host.touch("lfs-ssh")}\n`,
        "payload/HEAD": "ref: refs/heads/main\n",
        "payload/config": evilConfig(host),
        "payload/objects/info/.keep": "",
        "payload/refs/heads/.keep": "",
        ".githooks/pre-commit": `#!/bin/sh\n${host.touch("githooks-pre-commit")}\n`,
        ".husky/pre-commit": `#!/bin/sh\n${host.touch("husky-pre-commit")}\n`,
        ".gitmodules": `[submodule "evil"]\n\tpath = evil\n\turl = ${served.server.url}/x/y.git\n\tupdate = !${host.touch("submodule-update")}\n`,
        ".github/workflows/ci.yml": "on: push\n",
        "AGENTS.md": "# be nice\n",
        "a.txt": "one\n",
      },
      undefined,
      served,
    );
    const base = srcGit(repo.dir, ["rev-parse", "HEAD"]).trim();
    await writeFile(path.join(repo.dir, "a.txt"), "two\n");
    srcGit(repo.dir, ["-c", "filter.evil.clean=cat", "-c", "filter.evil.smudge=cat", "-c", "filter.evil.process=", "-c", "core.fsmonitor=false", "commit", "-q", "-am", "second"]);
    const head = srcGit(repo.dir, ["rev-parse", "HEAD"]).trim();
    expect(await host.leftMarkers()).toEqual([]);

    process.env.HOME = await hostileHome(host);
    const view = await runJobPath(repo);
    expect(view.instructions.map((s) => s.source)).toEqual(["AGENTS.md"]);

    // A step that changes a filtered file, adds one and touches a workflow (refused and restored from HEAD).
    await writeFile(path.join(view.checkout.path, "a.txt"), "three\n");
    await writeFile(path.join(view.checkout.path, "b.md"), "new\n");
    await writeFile(path.join(view.checkout.path, ".github/workflows/ci.yml"), "on: pull_request\n");
    const step = await commitStep({ checkout: view.checkout.path, step: "Change a", author: BOT });
    expect(step.files.sort()).toEqual(["a.txt", "b.md"]);
    expect(step.refused).toEqual([".github/workflows/ci.yml"]);
    // The contents went in as written: no clean filter transformed them.
    expect(srcGit(view.checkout.path, ["show", "HEAD:a.txt"])).toBe("three\n");

    const pushed = await pushBranch({
      checkout: view.checkout.path,
      cloneUrl: repo.cloneUrl,
      token: async () => TOKEN,
      branch: "crewbot/issue-1-x",
      defaultBranch: "main",
      base: view.checkout.sha,
    });
    expect(pushed.pushed).toBe(true);

    const files = parseDiff(await diffBetween(view.mirror, await mergeBase(view.mirror, base, head), head));
    expect(files.map((f) => f.path)).toEqual(["a.txt"]);

    expect(await host.leftMarkers()).toEqual([]);
  });

  it("a tree entry named .git/config (or .GIT/config) is never checked out as the checkout's config", async () => {
    const host = await makeHost();
    for (const dotgit of [".git", ".GIT"]) {
      const repo = await hostileRepo(`dotgit-${dotgit.slice(1)}`, {}, (dir) => {
        // git refuses to add such a path, so the tree is made by hand.
        const blob = srcGit(dir, ["hash-object", "-w", "--stdin"], evilConfig(host)).trim();
        const inner = srcGit(dir, ["mktree"], `100644 blob ${blob}\tconfig\n`).trim();
        const readme = srcGit(dir, ["rev-parse", "HEAD:README.md"]).trim();
        const tree = srcGit(dir, ["mktree"], `040000 tree ${inner}\t${dotgit}\n100644 blob ${readme}\tREADME.md\n`).trim();
        const commit = srcGit(dir, ["commit-tree", "-p", "HEAD", "-m", "evil", tree]).trim();
        srcGit(dir, ["update-ref", "refs/heads/main", commit]);
      });
      // Checkout fails closed (git will not write into .git) or succeeds without the entry: either way the config is git's own.
      const outcome = await runJobPath(repo).then(
        (view) => srcGit(view.checkout.path, ["config", "--local", "--list"]),
        (error: Error) => error.message,
      );
      expect(outcome).not.toContain("fsmonitor");
      expect(outcome).not.toContain(host.markers);
    }
    expect(await host.leftMarkers()).toEqual([]);
  });

  it("a nested repository planted in the checkout (fsmonitor, hooks, filters in its own config) runs nothing when crewbot commits", async () => {
    const host = await makeHost();
    const repo = await hostileRepo("nested", { ".github/workflows/ci.yml": "on: push\n" }, async (dir) => {
      await mkdir(path.join(dir, "libs/sub"), { recursive: true });
      // A submodule the repository really has: a gitlink whose directory is empty in a checkout.
      srcGit(dir, ["update-index", "--add", "--cacheinfo", `160000,${srcGit(dir, ["rev-parse", "HEAD"]).trim()},libs/sub`]);
    });
    const view = await runJobPath(repo);
    // What a sandboxed bash could do: it cannot touch the checkout's .git, but it can make new ones.
    for (const nested of ["vendor/lib", ".github/workflows/inner", "libs/sub"]) {
      const dir = path.join(view.checkout.path, nested);
      await mkdir(dir, { recursive: true });
      srcGit(dir, ["init", "-q", "-b", "main"]);
      await writeFile(path.join(dir, ".gitattributes"), ATTRIBUTES);
      await writeFile(path.join(dir, "f.txt"), "f\n");
      srcGit(dir, ["add", "-A"]);
      srcGit(dir, ["commit", "-q", "-m", "nested"]);
      await writeFile(path.join(dir, ".git", "config"), evilConfig(host), { flag: "a" });
      await evilHooks(path.join(dir, ".git", "hooks"), host);
      await writeFile(path.join(dir, "f.txt"), "dirty\n"); // a dirty nested work tree invites a status inside it
    }
    await writeFile(path.join(view.checkout.path, "ok.txt"), "ok\n");
    const first = await commitStep({ checkout: view.checkout.path, step: "Vendor a library", author: BOT });
    expect(first.files).toEqual(["ok.txt"]);
    expect(first.nested).toEqual([".github/workflows/inner", "libs/sub", "vendor/lib"]);
    await writeFile(path.join(view.checkout.path, "ok.txt"), "ok again\n");
    const second = await commitStep({ checkout: view.checkout.path, step: "Again", author: BOT });
    expect(second.files).toEqual(["ok.txt"]);
    // Nothing of the nested repositories was committed: the tree has the original gitlink only.
    expect(srcGit(view.checkout.path, ["ls-tree", "-r", "--name-only", "HEAD"]).split("\n").filter(Boolean).sort()).toEqual([
      ".github/workflows/ci.yml",
      "README.md",
      "libs/sub",
      "ok.txt",
    ]);
    expect(await host.leftMarkers()).toEqual([]);
  });
});
