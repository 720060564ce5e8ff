import { existsSync } from "node:fs";
import { chmod, readFile, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { makeCheckout } from "../../src/workspace/checkout.js";
import { authHeader } from "../../src/secrets/git-credentials.js";
import { MirrorStore } from "../../src/workspace/mirror.js";
import { gitSync, tempDir } from "../helpers/git-repo.js";
import { commit, filesContaining, noise, serve, TOKEN } from "./fixture.js";

const b64 = Buffer.from(`x-access-token:${TOKEN}`).toString("base64");

describe("mirror", () => {
  it("mirrors over HTTP with the token as a header only, and checks out the right commit", async () => {
    const { server, dataDir, repo } = await serve();
    const src = await repo("octo", "demo", { "README.md": "# demo\n", "src/a.ts": "export const a = 1;\n" });
    const head = gitSync(src.dir, "rev-parse", "HEAD").trim();
    const store = new MirrorStore({ dataDir });

    const lease = await store.sync({ owner: "octo", repo: "demo", cloneUrl: src.cloneUrl, token: TOKEN });
    expect(lease.path).toBe(path.join(dataDir, "mirrors", "octo", "demo.git"));
    const co = await makeCheckout({ mirror: lease.path, ref: "main", dest: path.join(dataDir, "jobs", "j1", "work"), cloneUrl: src.cloneUrl });
    await lease.release();

    expect(co.sha).toBe(head);
    expect(gitSync(co.path, "rev-parse", "HEAD").trim()).toBe(head);
    expect(await readFile(path.join(co.path, "src/a.ts"), "utf8")).toBe("export const a = 1;\n");
    expect(gitSync(co.path, "status", "--porcelain")).toBe("");
    // The server only answers authorised requests, so every one carried the header.
    expect(server.requests.length).toBeGreaterThan(0);
    expect(server.requests.every((r) => r.authorized && r.status === 200)).toBe(true);

    // Not in any file: configs, packed-refs, FETCH_HEAD, logs, objects — neither raw nor as base64.
    expect(await filesContaining(dataDir, TOKEN)).toEqual([]);
    expect(await filesContaining(dataDir, b64)).toEqual([]);
    expect(gitSync(co.path, "remote", "-v")).toBe(`origin\t${src.cloneUrl} (fetch)\norigin\t${src.cloneUrl} (push)\n`);
    expect(gitSync(lease.path, "remote", "-v")).toBe("");
    expect(existsSync(path.join(co.path, ".git", "objects", "info", "alternates"))).toBe(false);
  });

  it("keeps the token out of git's argv (what `ps` shows) and hands it over in the environment", async () => {
    const { dataDir, repo } = await serve();
    const src = await repo("octo", "argv", { "a.txt": "a\n" });
    const bin = await tempDir();
    const log = path.join(bin, "calls.log");
    const realGit = gitSync(bin, "--exec-path").trim() + "/git";
    await writeFile(
      path.join(bin, "git"),
      `#!/bin/sh\nprintf '%s\\n' "argv: $*" "env: $GIT_CONFIG_KEY_0 \${GIT_CONFIG_VALUE_0:+set}" >> ${log}\nexec ${realGit} "$@"\n`,
    );
    await chmod(path.join(bin, "git"), 0o755);
    const savedPath = process.env.PATH;
    process.env.PATH = `${bin}:${savedPath}`;
    try {
      const lease = await new MirrorStore({ dataDir }).sync({ owner: "octo", repo: "argv", cloneUrl: src.cloneUrl, token: TOKEN });
      await lease.release();
    } finally {
      process.env.PATH = savedPath;
    }
    const calls = await readFile(log, "utf8");
    expect(calls).toContain("argv: ");
    expect(calls).toContain("fetch --prune");
    expect(calls).toContain("env: http.extraHeader set");
    expect(calls).not.toContain(TOKEN);
    expect(calls).not.toContain(b64);
    expect(authHeader(TOKEN)).toBe(`Authorization: Basic ${b64}`);
  });

  it("fails clearly on a wrong token, without the token in the error, and leaves no mirror", async () => {
    const { server, dataDir, repo } = await serve();
    const src = await repo("octo", "private", { "a.txt": "a\n" });
    const wrong = "ghs_wrongwrongwrongwrongwrong123456";
    const store = new MirrorStore({ dataDir });
    const error = await store.sync({ owner: "octo", repo: "private", cloneUrl: src.cloneUrl, token: wrong }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(/authentication refused/);
    expect(error?.message).toContain(src.cloneUrl);
    for (const text of [error?.message, String(error?.stack), (error as { stderr?: string }).stderr]) {
      expect(text).not.toContain(wrong);
      expect(text).not.toContain(Buffer.from(`x-access-token:${wrong}`).toString("base64"));
    }
    expect(server.requests.some((r) => r.status === 401)).toBe(true);
    expect(existsSync(store.mirrorPath("octo", "private"))).toBe(false);
    expect(await filesContaining(dataDir, wrong)).toEqual([]);
  });

  it("fetches only what is new on the next sync", async () => {
    const { server, dataDir, repo } = await serve();
    const src = await repo("octo", "grow", { "big.txt": noise(300_000) });
    const store = new MirrorStore({ dataDir });
    const sync = async () => (await store.sync({ owner: "octo", repo: "grow", cloneUrl: src.cloneUrl, token: TOKEN })).release();

    await sync();
    expect(server.fetches()).toHaveLength(1);
    const first = server.fetches()[0]!.responseBytes;
    expect(first).toBeGreaterThan(200_000); // base64 noise: 6 bits a byte

    await sync(); // nothing new: refs compared, no objects asked for
    expect(server.fetches()).toHaveLength(1);

    const next = await commit(src.dir, { "small.txt": "small\n" });
    await sync();
    expect(server.fetches()).toHaveLength(2);
    expect(server.fetches()[1]!.responseBytes).toBeLessThan(5_000);
    const mirror = store.mirrorPath("octo", "grow");
    expect(gitSync(mirror, "rev-parse", "refs/heads/main").trim()).toBe(next);

    // A deleted branch is pruned.
    gitSync(src.dir, "branch", "gone");
    await sync();
    expect(gitSync(mirror, "branch", "--list")).toContain("gone");
    gitSync(src.dir, "branch", "-D", "gone");
    await sync();
    expect(gitSync(mirror, "branch", "--list")).not.toContain("gone");
  });

  it("serialises concurrent syncs of one mirror; both succeed and only one downloads", async () => {
    const { server, dataDir, repo } = await serve();
    const src = await repo("octo", "busy", { "big.txt": noise(200_000) });
    const store = new MirrorStore({ dataDir });
    const other = new MirrorStore({ dataDir }); // a second store in the process shares the lock
    const remote = { owner: "octo", repo: "busy", cloneUrl: src.cloneUrl, token: TOKEN, defaultBranch: "main" };
    const [a, b] = await Promise.all([store.sync(remote), other.sync(remote)]);
    expect(a.path).toBe(b.path);
    await Promise.all([a.release(), b.release()]);
    expect(server.fetches()).toHaveLength(1);
    // The second sync's requests all started after the first sync's last request ended.
    const infoRefs = server.requests.filter((r) => r.url.includes("/info/refs"));
    expect(infoRefs).toHaveLength(2);
    const firstEnd = Math.max(...server.requests.filter((r) => r.start < infoRefs[1]!.start).map((r) => r.end));
    expect(infoRefs[1]!.start).toBeGreaterThanOrEqual(firstEnd);
    expect(existsSync(`${a.path}.lock`)).toBe(false);
    expect(gitSync(a.path, "fsck", "--no-progress")).toBe("");
  });

  it("evicts the least recently used mirror that no job is using once over the cap", async () => {
    const { dataDir, repo } = await serve();
    const names = ["one", "two", "three"];
    const urls = new Map<string, string>();
    for (const name of names) urls.set(name, (await repo("octo", name, { "big.txt": noise(150_000) })).cloneUrl);
    const store = new MirrorStore({ dataDir, maxBytes: 10 * 1024 ** 3, minIdleMs: 0 });
    const sync = (name: string) => store.sync({ owner: "octo", repo: name, cloneUrl: urls.get(name)!, token: TOKEN });
    for (const name of names) await (await sync(name)).release();
    // Last use: one (oldest), two, three.
    for (const [i, name] of names.entries()) {
      const when = new Date(Date.now() - (10 - i) * 60_000);
      await utimes(path.join(store.mirrorPath("octo", name), "crewbot-last-used"), when, when);
    }
    const sizes = new Map((await store.list()).map((m) => [m.path, m.bytes]));
    const total = [...sizes.values()].reduce((a, b) => a + b, 0);

    // Room for two: "one" is least recently used but leased, so "two" goes.
    const capped = new MirrorStore({ dataDir, maxBytes: total - 1, minIdleMs: 0 });
    const held = capped.lease(capped.mirrorPath("octo", "one"));
    expect(await capped.evict()).toEqual([capped.mirrorPath("octo", "two")]);
    await held.release(); // touches "one": now the most recently used

    // A sync over the cap evicts on its own, never the mirror it just synced.
    await (await sync("two")).release();
    const tight = new MirrorStore({ dataDir, maxBytes: 1, minIdleMs: 0 });
    const lease = await tight.sync({ owner: "octo", repo: "two", cloneUrl: urls.get("two")!, token: TOKEN });
    expect(existsSync(lease.path)).toBe(true);
    expect(existsSync(tight.mirrorPath("octo", "one"))).toBe(false);
    expect(existsSync(tight.mirrorPath("octo", "three"))).toBe(false);
    await lease.release();

    // Recently used mirrors are kept even without a lease here (another process may use them).
    const careful = new MirrorStore({ dataDir, maxBytes: 1 });
    expect(await careful.evict()).toEqual([]);
  });

  it("refuses names and URLs that could point anywhere else", async () => {
    const store = new MirrorStore({ dataDir: await tempDir() });
    expect(store.mirrorPath("octo", ".github")).toMatch(/mirrors\/octo\/\.github\.git$/);
    for (const [owner, name] of [["..", "x"], ["octo", "../x"], ["octo", "a/b"], ["oc to", "x"], ["octo", ""], ["-x", "y.lock"], [".trash-1", "x"]]) {
      expect(() => store.mirrorPath(owner!, name!)).toThrow(/invalid/);
    }
    await expect(store.sync({ owner: "o", repo: "r", cloneUrl: "https://x-access-token:t@github.com/o/r.git" })).rejects.toThrow(/credentials/);
    await expect(store.sync({ owner: "o", repo: "r", cloneUrl: "file:///etc" })).rejects.toThrow(/http/);
    await expect(store.sync({ owner: "o", repo: "r", cloneUrl: "ext::sh -c id" })).rejects.toThrow(/clone URL/);
    await expect(store.sync({ owner: "o", repo: "r", cloneUrl: "https://github.com/o/r.git", defaultBranch: "-x" })).rejects.toThrow(/invalid branch/);
  });
});

describe("mirror: what it fetches", () => {
  it("fetches branches and tags, and of the pull requests only the heads a job names", async () => {
    const { dataDir, repo } = await serve();
    const src = await repo("octo", "prs", { "a.txt": "a\n" });
    gitSync(src.dir, "tag", "v1");
    const heads: Record<number, string> = {};
    for (const n of [1, 2, 3]) {
      heads[n] = await commit(src.dir, { [`pr${n}.txt`]: `${n}\n` }, `pr ${n}`);
      gitSync(src.dir, "update-ref", `refs/pull/${n}/head`, heads[n]!);
      gitSync(src.dir, "update-ref", `refs/pull/${n}/merge`, heads[n]!);
      gitSync(src.dir, "reset", "-q", "--hard", "HEAD~1");
    }
    const store = new MirrorStore({ dataDir });
    const refs = () => gitSync(store.mirrorPath("octo", "prs"), "for-each-ref", "--format=%(refname)").trim().split("\n");

    await (await store.sync({ owner: "octo", repo: "prs", cloneUrl: src.cloneUrl, token: TOKEN, defaultBranch: "main" })).release();
    expect(refs()).toEqual(["refs/heads/main", "refs/tags/v1"]);

    await (await store.sync({ owner: "octo", repo: "prs", cloneUrl: src.cloneUrl, token: TOKEN, pulls: [2] })).release();
    expect(refs()).toEqual(["refs/heads/main", "refs/pull/2/head", "refs/tags/v1"]);
    expect(gitSync(store.mirrorPath("octo", "prs"), "rev-parse", "refs/pull/2/head").trim()).toBe(heads[2]);
    // The other heads' commits never came.
    expect(() => gitSync(store.mirrorPath("octo", "prs"), "cat-file", "-e", heads[1]!)).toThrow();

    await expect(store.sync({ owner: "octo", repo: "prs", cloneUrl: src.cloneUrl, token: TOKEN, pulls: [9] })).rejects.toThrow(
      "pull request #9 has no head on GitHub (refs/pull/9/head): was it deleted?",
    );
    await expect(store.sync({ owner: "octo", repo: "prs", cloneUrl: src.cloneUrl, token: TOKEN, pulls: [0] })).rejects.toThrow(/invalid pull request number/);
  });

  it("drops, once, the PR heads a mirror made before holds (every PR head ever pushed)", async () => {
    const { dataDir, repo } = await serve();
    const src = await repo("octo", "legacy", { "a.txt": "a\n" });
    for (const n of [1, 2, 3]) gitSync(src.dir, "update-ref", `refs/pull/${n}/head`, "HEAD");
    const store = new MirrorStore({ dataDir });
    const mirror = store.mirrorPath("octo", "legacy");
    await (await store.sync({ owner: "octo", repo: "legacy", cloneUrl: src.cloneUrl, token: TOKEN })).release();
    // As the old refspec left it: every head, and no mark.
    for (const n of [1, 2, 3]) gitSync(mirror, "update-ref", `refs/pull/${n}/head`, "refs/heads/main");
    gitSync(mirror, "config", "--unset", "crewbot.pullHeads");
    const refs = () => gitSync(mirror, "for-each-ref", "--format=%(refname)", "refs/pull/").trim().split("\n").filter(Boolean);

    await (await store.sync({ owner: "octo", repo: "legacy", cloneUrl: src.cloneUrl, token: TOKEN, pulls: [2] })).release();
    expect(refs()).toEqual(["refs/pull/2/head"]);
    await (await store.sync({ owner: "octo", repo: "legacy", cloneUrl: src.cloneUrl, token: TOKEN, pulls: [3] })).release();
    expect(refs()).toEqual(["refs/pull/2/head", "refs/pull/3/head"]); // a head a job fetched stays: another job may be checking it out
  });

  it("mirrors a large repository as a partial clone, fetching the files of what is checked out, and the checkout works offline", async () => {
    const { server, dataDir, repo } = await serve();
    const src = await repo("octo", "huge", { "big.txt": noise(200_000), "keep.txt": "keep\n" });
    const oldBig = gitSync(src.dir, "rev-parse", "HEAD:big.txt").trim();
    await commit(src.dir, { "big.txt": noise(200_000) }, "new big");
    gitSync(src.dir, "checkout", "-q", "-b", "feature");
    const prSha = await commit(src.dir, { "feature.txt": "f\n" }, "feature");
    gitSync(src.dir, "checkout", "-q", "main");
    gitSync(src.dir, "update-ref", "refs/pull/5/head", prSha);
    // GitHub serves partial clones and fetches of objects by id.
    gitSync(src.dir, "config", "uploadpack.allowFilter", "true");
    gitSync(src.dir, "config", "uploadpack.allowAnySHA1InWant", "true");
    const store = new MirrorStore({ dataDir, partialAboveKb: 100 });
    const remote = { owner: "octo", repo: "huge", cloneUrl: src.cloneUrl, token: TOKEN, defaultBranch: "main", sizeKb: 101, pulls: [5], hydrate: ["refs/pull/5/head"] };

    const lease = await store.sync(remote);
    const mirror = lease.path;
    expect(gitSync(mirror, "config", "remote.origin.promisor").trim()).toBe("true");
    expect(gitSync(mirror, "config", "extensions.partialClone").trim()).toBe("origin");
    expect(gitSync(mirror, "config", "remote.origin.url").trim()).toBe(src.cloneUrl);
    // History without old contents: the first big.txt was never downloaded.
    expect(gitSync(mirror, "rev-list", "--objects", "--missing=print", "--all").split("\n")).toContain(`?${oldBig}`);
    const sent = server.fetches().reduce((sum, r) => sum + r.responseBytes, 0);
    expect(sent).toBeLessThan(350_000); // one big.txt (~200 KB), not two

    await server.close(); // from here on no network: the checkout needs none
    const co = await makeCheckout({ mirror, ref: "refs/pull/5/head", dest: path.join(dataDir, "co"), cloneUrl: src.cloneUrl });
    await lease.release();
    expect(co.sha).toBe(prSha);
    expect(await readFile(path.join(co.path, "feature.txt"), "utf8")).toBe("f\n");
    expect((await readFile(path.join(co.path, "big.txt"), "utf8")).length).toBe(200_000);
    expect(gitSync(co.path, "status", "--porcelain")).toBe("");
    expect(gitSync(co.path, "config", "extensions.partialClone").trim()).toBe("origin");
    expect(gitSync(co.path, "diff", "HEAD~1", "HEAD", "--stat")).toContain("feature.txt");
    expect(await filesContaining(dataDir, TOKEN)).toEqual([]);
    expect(await filesContaining(dataDir, b64)).toEqual([]);
  });

  it("keeps a small repository's mirror whole", async () => {
    const { dataDir, repo } = await serve();
    const src = await repo("octo", "small", { "a.txt": "a\n" });
    const lease = await new MirrorStore({ dataDir }).sync({ owner: "octo", repo: "small", cloneUrl: src.cloneUrl, token: TOKEN, sizeKb: 12 });
    await lease.release();
    expect(() => gitSync(lease.path, "config", "extensions.partialClone")).toThrow();
    expect(gitSync(lease.path, "remote")).toBe("");
  });
});

describe("pruneMirrors", () => {
  it("removes mirrors unused for longer than the given age, never one in use", async () => {
    const { dataDir, repo } = await serve();
    const store = new MirrorStore({ dataDir });
    for (const name of ["old", "held", "fresh"]) {
      const src = await repo("octo", name, { "a.txt": `${name}\n` });
      await (await store.sync({ owner: "octo", repo: name, cloneUrl: src.cloneUrl, token: TOKEN })).release();
    }
    const monthAgo = new Date(Date.now() - 31 * 24 * 3600_000);
    for (const name of ["old", "held"]) await utimes(path.join(store.mirrorPath("octo", name), "crewbot-last-used"), monthAgo, monthAgo);
    const held = store.lease(store.mirrorPath("octo", "held"));

    expect(await store.pruneMirrors(30 * 24 * 3600_000)).toEqual([store.mirrorPath("octo", "old")]);
    expect(existsSync(store.mirrorPath("octo", "old"))).toBe(false);
    expect(existsSync(store.mirrorPath("octo", "held"))).toBe(true);
    expect(existsSync(store.mirrorPath("octo", "fresh"))).toBe(true);
    await held.release(); // a release is a use: it is fresh again
    expect(await store.pruneMirrors(30 * 24 * 3600_000)).toEqual([]);
    await expect(store.pruneMirrors(-1)).rejects.toThrow(/invalid age/);
  });
});
