/**
 * Attack: names that git or a shell could read as something else — file names with leading dashes
 * (`-rf`, `--upload-pack=…`, `--output=…`), spaces and `-c core.pager=…`, newlines, look-alike
 * unicode (`АGENTS.md` with a Cyrillic А, a right-to-left override), and branch names, default
 * branches, PR refs and revisions that look like options or climb out of `refs/heads/`.
 * No name may become an option: no marker, no file written where the option would put it.
 */
import { existsSync } from "node:fs";
import { readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseDiff } from "../../src/review/diff-lines.js";
import { makeCheckout } from "../../src/workspace/checkout.js";
import { commitStep } from "../../src/workspace/commit.js";
import { readDefaultBranchFiles } from "../../src/jobs/default-branch.js";
import { diffBetween, isAncestor, mergeBase } from "../../src/workspace/diff.js";
import { MirrorStore } from "../../src/workspace/mirror.js";
import { assertPushable, pushBranch } from "../../src/workspace/push.js";
import { serve } from "../workspace/fixture.js";
import { tempDir } from "../helpers/git-repo.js";
import { hostileRepo, makeHost, runJobPath, srcGit, TOKEN, toolContext, tools, type Host } from "./repo-hostile.js";

const BOT = { name: "crewbot[bot]", email: "1+crewbot[bot]@users.noreply.github.com" };

function hostileNames(host: Host): string[] {
  return [
    "-rf",
    "--upload-pack=evil",
    "--output=pwned",
    `-c core.pager=${host.touch("pager")}`,
    "--exec=touch pwned",
    "line\nbreak.txt",
    "tab\there.txt",
    "\u0410GENTS.md", // Cyrillic А
    "\u202Egnp.sh", // right-to-left override: shows as "hs.png"
    ":(glob)*",
    ":!README.md",
    "*",
    "sub/-n",
  ];
}

describe("option-like, multi-line and look-alike names", () => {
  it("files named like options are read, listed, searched, edited, committed, pushed and diffed as plain names", async () => {
    const host = await makeHost();
    const served = await serve(TOKEN, { receivePack: true });
    const names = hostileNames(host);
    const repo = await hostileRepo("names", Object.fromEntries(names.map((n) => [n, `needle in ${JSON.stringify(n)}\n`])), undefined, served);
    const view = await runJobPath(repo);

    // A look-alike of AGENTS.md is not AGENTS.md: it instructs nobody.
    expect(view.instructions).toEqual([]);
    expect(view.defaults.files).toEqual([]);

    const ctx = await toolContext(view.checkout.path, "write");
    for (const name of names) {
      const read = await tools.read(ctx, name);
      expect(read.isError, name).toBe(false);
      expect(read.output).toContain(`needle in ${JSON.stringify(name)}`);
      expect((await tools.edit(ctx, name, "needle", "pin")).isError, name).toBe(false);
    }
    for (const backend of ["rg", "js"] as const) {
      const hits = await tools.grep(ctx, "pin in", backend);
      // One hit per file (a name with a newline spans two output lines; the JS fallback's globber skips that name).
      expect(hits.output.match(/pin in /g)?.length, backend).toBe(backend === "rg" ? names.length : names.length - 1);
    }
    expect((await tools.find(ctx, "**/-*")).output.split("\n").sort()).toEqual(names.filter((n) => /(^|\/)-[^/]*$/.test(n)).sort());
    expect((await tools.grep(ctx, "pin", "rg", "-rf")).output).toBe('-rf:1:pin in "-rf"');

    const step = await commitStep({ checkout: view.checkout.path, step: "--amend -c core.editor=evil", author: BOT });
    expect(step.files.sort()).toEqual([...names].sort());
    expect(srcGit(view.checkout.path, ["log", "-1", "--format=%s"]).trim()).toBe("--amend -c core.editor=evil");

    // Deleting them is a change as well.
    await writeFile(path.join(view.checkout.path, "-rf"), "");
    const pushed = await pushBranch({
      checkout: view.checkout.path,
      cloneUrl: repo.cloneUrl,
      token: async () => TOKEN,
      branch: "crewbot/--upload-pack=evil",
      defaultBranch: "main",
    });
    expect(pushed.pushed).toBe(true);
    expect(srcGit(repo.dir, ["rev-parse", "refs/heads/crewbot/--upload-pack=evil"]).trim()).toBe(step.sha);

    // The review path: a mirror fetch brings the pushed branch, its diff parses back to the exact names.
    const lease = await new MirrorStore({ dataDir: served.dataDir }).sync({ owner: repo.owner, repo: repo.name, cloneUrl: repo.cloneUrl, token: TOKEN });
    const base = await mergeBase(lease.path, "refs/heads/main", step.sha!);
    const files = parseDiff(await diffBetween(lease.path, base, step.sha!));
    await lease.release();
    expect(files.map((f) => f.path).sort()).toEqual([...names].sort());

    expect(await host.leftMarkers()).toEqual([]);
    expect(existsSync(path.join(view.checkout.path, "pwned"))).toBe(false);
    expect((await readdir(view.checkout.path)).filter((n) => n.startsWith("evil"))).toEqual([]);
  });

  it("revisions spelled like options never become options of git diff or merge-base", async () => {
    const host = await makeHost();
    const repo = await hostileRepo("revs", { "a.txt": "a\n" });
    const view = await runJobPath(repo);
    const out = path.join(host.markers, "marker-diff-output");
    for (const rev of [`--output=${out}`, `--ext-diff`, "-c", "--no-index"]) {
      await expect(diffBetween(view.mirror, rev, view.checkout.sha)).rejects.toThrow();
      await expect(diffBetween(view.mirror, view.checkout.sha, rev)).rejects.toThrow();
      await expect(mergeBase(view.mirror, rev, view.checkout.sha)).rejects.toThrow();
      expect(await isAncestor(view.mirror, rev, view.checkout.sha)).toBe(false);
    }
    expect(await host.leftMarkers()).toEqual([]);
  });

  it("default branches, checkout refs and push targets that look like options or leave refs/heads/ are refused", async () => {
    const host = await makeHost();
    const repo = await hostileRepo("branches", { "a.txt": "a\n" }, (dir) => {
      // Branches a pusher can create on a plain git server (GitHub refuses some of them; the mirror must cope anyway).
      srcGit(dir, ["update-ref", "refs/heads/--exec=touch", "HEAD"]);
      srcGit(dir, ["update-ref", "refs/heads/-c", "HEAD"]);
    });
    const store = new MirrorStore({ dataDir: repo.served.dataDir });
    const bad = [
      `--output=${path.join(host.markers, "marker-x")}`,
      `-c core.pager=${host.touch("pager")}`,
      "--exec",
      "-c",
      "refs/heads/../../x",
      "refs/heads/main",
      "../x",
      "main..x",
      "HEAD",
      "main@{1}",
      "main~1",
      "ma\nin",
      "",
    ];
    for (const branch of bad) {
      await expect(store.sync({ owner: repo.owner, repo: repo.name, cloneUrl: repo.cloneUrl, token: TOKEN, defaultBranch: branch }), JSON.stringify(branch)).rejects.toThrow();
    }
    const lease = await store.sync({ owner: repo.owner, repo: repo.name, cloneUrl: repo.cloneUrl, token: TOKEN, defaultBranch: "main" });
    // The odd branches arrived as plain refs and changed nothing.
    expect(srcGit(lease.path, ["for-each-ref", "--format=%(refname)", "refs/heads/"]).split("\n").filter(Boolean).sort()).toEqual([
      "refs/heads/--exec=touch",
      "refs/heads/-c",
      "refs/heads/main",
    ]);
    for (const ref of [...bad, "refs/pull/1/head/../../heads/main", "refs/pull/--exec/head", "--exec=touch"]) {
      const dest = path.join(await tempDir(), "co");
      await expect(makeCheckout({ mirror: lease.path, ref, dest }), JSON.stringify(ref)).rejects.toThrow();
      await expect(readDefaultBranchFiles(lease.path, ref, path.join(await tempDir(), "d")), JSON.stringify(ref)).rejects.toThrow();
    }
    const view = await makeCheckout({ mirror: lease.path, ref: "main", dest: path.join(await tempDir(), "co"), cloneUrl: repo.cloneUrl });
    await lease.release();
    for (const branch of ["--exec", "-c", "refs/heads/crewbot/x", "crewbot/../main", "crewbot/x\nmain"]) {
      expect(() => assertPushable({ branch, defaultBranch: "main", prHeadBranch: branch }), JSON.stringify(branch)).not.toThrow(/never/);
      await expect(
        pushBranch({ checkout: view.path, cloneUrl: repo.cloneUrl, token: async () => TOKEN, branch, defaultBranch: "main", prHeadBranch: branch }),
        JSON.stringify(branch),
      ).rejects.toThrow(/refusing|invalid branch/);
    }
    expect(await host.leftMarkers()).toEqual([]);
    expect(existsSync(path.join(view.path, "pwned"))).toBe(false);
  });
});
