import { existsSync } from "node:fs";
import { chmod, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { makeCheckout, removeCheckout } from "../../src/workspace/checkout.js";
import { MirrorStore } from "../../src/workspace/mirror.js";
import { gitSync, tempDir } from "../helpers/git-repo.js";
import { commit, serve, TOKEN } from "./fixture.js";

async function mirrored(files: Record<string, string>) {
  const served = await serve();
  const src = await served.repo("octo", "demo", files);
  const store = new MirrorStore({ dataDir: served.dataDir });
  const sync = async (pulls: number[] = []) => {
    const lease = await store.sync({ owner: "octo", repo: "demo", cloneUrl: src.cloneUrl, token: TOKEN, pulls });
    await lease.release();
    return lease.path;
  };
  return { ...served, src, store, sync, mirror: await sync() };
}

async function plantHook(hooksDir: string, name: string, marker: string) {
  await mkdir(hooksDir, { recursive: true });
  await writeFile(path.join(hooksDir, name), `#!/bin/sh\necho "${name} in $PWD" >> ${marker}\n`);
  await chmod(path.join(hooksDir, name), 0o755);
}

describe("checkout", () => {
  it("checks out a branch, a pull-request head and a sha", async () => {
    const { src, sync, dataDir } = await mirrored({ "a.txt": "main\n" });
    const mainSha = gitSync(src.dir, "rev-parse", "HEAD").trim();
    // A PR head that exists only as refs/pull/7/head, as on GitHub for a fork's PR.
    gitSync(src.dir, "checkout", "-q", "-b", "feature");
    const prSha = await commit(src.dir, { "a.txt": "pr\n", "b.txt": "new\n" });
    gitSync(src.dir, "checkout", "-q", "main");
    gitSync(src.dir, "update-ref", "refs/pull/7/head", prSha);
    gitSync(src.dir, "branch", "-D", "feature");
    const mirror = await sync([7]); // the PR's head is fetched because the job names it

    const pr = await makeCheckout({ mirror, ref: "refs/pull/7/head", dest: path.join(dataDir, "pr") });
    expect(pr.sha).toBe(prSha);
    expect(await readFile(path.join(pr.path, "a.txt"), "utf8")).toBe("pr\n");
    expect(await readFile(path.join(pr.path, "b.txt"), "utf8")).toBe("new\n");
    expect(gitSync(pr.path, "log", "--format=%H", "-1")).toBe(`${prSha}\n`);
    expect(gitSync(pr.path, "remote")).toBe(""); // no cloneUrl given: no origin at all

    const branch = await makeCheckout({ mirror, ref: "main", dest: path.join(dataDir, "main") });
    expect(branch.sha).toBe(mainSha);
    expect(existsSync(path.join(branch.path, "b.txt"))).toBe(false);

    const bySha = await makeCheckout({ mirror, ref: prSha, dest: path.join(dataDir, "sha") });
    expect(bySha.sha).toBe(prSha);
    expect(gitSync(bySha.path, "diff", "--stat", mainSha, "HEAD")).toContain("b.txt");

    await expect(makeCheckout({ mirror, ref: "nope", dest: path.join(dataDir, "x") })).rejects.toThrow(/not a commit/);
    await expect(makeCheckout({ mirror, ref: "--upload-pack=sh", dest: path.join(dataDir, "x") })).rejects.toThrow(/invalid branch/);
    await expect(makeCheckout({ mirror, ref: "refs/remotes/x", dest: path.join(dataDir, "x") })).rejects.toThrow(/invalid branch/);
    await expect(makeCheckout({ mirror, ref: "main", dest: path.join(dataDir, "main") })).rejects.toThrow(/not empty/);
    expect(existsSync(path.join(dataDir, "x"))).toBe(false);
  });

  it("has its own .git: git keeps working when the mirror is gone", async () => {
    const { mirror, dataDir } = await mirrored({ "a.txt": "a\n" });
    const co = await makeCheckout({ mirror, ref: "main", dest: path.join(dataDir, "co") });
    expect(existsSync(path.join(co.path, ".git", "objects", "info", "alternates"))).toBe(false);
    await rm(mirror, { recursive: true, force: true });
    expect(gitSync(co.path, "log", "--oneline")).toContain("initial");
    expect(gitSync(co.path, "fsck", "--no-progress")).toBe("");

    await removeCheckout(co.path);
    expect(existsSync(co.path)).toBe(false);
    await removeCheckout(co.path); // twice is fine
  });

  it("never runs hooks of the source repository or of the mirror", async () => {
    const marker = path.join(await tempDir(), "hooks-ran");
    const served = await serve();
    const src = await served.repo("octo", "hooked", { "a.txt": "a\n" });
    for (const name of ["post-checkout", "pre-push", "reference-transaction", "post-merge", "post-rewrite"]) {
      await plantHook(path.join(src.dir, ".git", "hooks"), name, marker);
    }
    const store = new MirrorStore({ dataDir: served.dataDir });
    const remote = { owner: "octo", repo: "hooked", cloneUrl: src.cloneUrl, token: TOKEN };
    const mirror = (await store.sync(remote)).path;
    expect(existsSync(path.join(mirror, "hooks"))).toBe(false); // hooks are not cloned, nor sample hooks made

    // Planted in the mirror itself, and named by the mirror's config too.
    const planted = path.join(served.dataDir, "planted-hooks");
    for (const name of ["post-checkout", "reference-transaction", "post-merge", "pre-auto-gc"]) {
      await plantHook(path.join(mirror, "hooks"), name, marker);
      await plantHook(planted, name, marker);
    }
    gitSync(mirror, "config", "core.hooksPath", planted);
    // The test's own commit in the source must not fire the source's hooks either.
    await writeFile(path.join(src.dir, "b.txt"), "b\n");
    gitSync(src.dir, "-c", "core.hooksPath=/dev/null", "add", "b.txt");
    gitSync(src.dir, "-c", "core.hooksPath=/dev/null", "commit", "-q", "-m", "b");
    await store.sync(remote);
    const co = await makeCheckout({ mirror, ref: "main", dest: path.join(served.dataDir, "co"), cloneUrl: src.cloneUrl });

    expect(await readFile(path.join(co.path, "b.txt"), "utf8")).toBe("b\n");
    expect(existsSync(path.join(co.path, ".git", "hooks"))).toBe(false);
    expect(existsSync(marker) ? await readFile(marker, "utf8") : "no hook ran").toBe("no hook ran");
  });
});
