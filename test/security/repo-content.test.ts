/**
 * Attack: repository content that makes crewbot fetch elsewhere or read without bound —
 * submodules pointing at a local repository with secrets, at `file:///etc`, at a sibling on the
 * same server (`update = !cmd` in .gitmodules is refused by git itself when parsed, so it is not
 * built here; crewbot never runs `git submodule`); and a 300 MB file (as AGENTS.md, an agent definition and a
 * plain file) plus binary files.
 */
import { execFileSync } from "node:child_process";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadDefinitions } from "../../src/chain/definitions.js";
import { readRepoInstructions } from "../../src/context/repo-instructions.js";
import { parseDiff } from "../../src/review/diff-lines.js";
import { diffBetween } from "../../src/workspace/diff.js";
import { serve } from "../workspace/fixture.js";
import { makeRepo } from "../helpers/git-repo.js";
import { everythingRead, HOST_SECRET, hostileRepo, makeHost, runJobPath, srcGit, toolContext, tools, writeTree } from "./repo-hostile.js";

describe("submodules and oversized content", () => {
  it("submodules (a local repository with secrets, file:///etc, a sibling on the server) are neither fetched nor followed", async () => {
    const host = await makeHost();
    const served = await serve();
    const secret = await makeRepo({ "secret.txt": `${HOST_SECRET}\n` });
    const secretSha = srcGit(secret, ["rev-parse", "HEAD"]).trim();
    await served.repo("mallory", "sibling", { "secret.txt": `${HOST_SECRET}\n` });
    const modules = [
      ["local", secret],
      ["local-url", `file://${secret}`],
      ["etc", "file:///etc"],
      ["sibling", "../sibling.git"],
    ];
    const repo = await hostileRepo(
      "submodules",
      {
        ".gitmodules": modules
          .map(([name, url]) => `[submodule "${name}"]\n\tpath = mods/${name}\n\turl = ${url}\n\tupdate = none\n\tfetchRecurseSubmodules = true\n`)
          .join(""),
      },
      async (dir) => {
        for (const [name] of modules) {
          await writeTree(dir, { [`mods/${name}/.keep`]: "" });
          srcGit(dir, ["update-index", "--add", "--cacheinfo", `160000,${secretSha},mods/${name}`]);
        }
      },
      served,
    );
    const view = await runJobPath(repo);
    const second = await runJobPath(repo); // a second sync fetches into an existing mirror
    for (const v of [view, second]) {
      for (const [name] of modules) expect(await readdir(path.join(v.checkout.path, "mods", name!))).toEqual([]);
      for (const where of [v.mirror, v.checkout.path]) {
        expect(() => execFileSync("git", ["cat-file", "-e", `${secretSha}^{commit}`], { cwd: where, stdio: "ignore" }), where).toThrow();
      }
    }
    expect(served.server.requests.filter((r) => r.url.includes("sibling"))).toEqual([]);
    expect(everythingRead(view)).not.toContain(HOST_SECRET);
    const ctx = await toolContext(view.checkout.path, "read-only");
    expect((await tools.grep(ctx, "HOST-SECRE[T]")).output).toMatch(/^No matches/);
    expect(await host.leftMarkers()).toEqual([]);
  });

  it("a 300 MB file checks out, but definitions, instructions, tools and the review diff read only a bounded part", { timeout: 240_000 }, async () => {
    const line = `${"lorem ipsum dolor sit amet ".repeat(3)}\n`;
    const huge = Buffer.from(line.repeat(Math.ceil((300 * 1024 * 1024) / line.length)));
    const binary = Buffer.concat([Buffer.from("\x7fELF\0\0\0"), Buffer.alloc(64 * 1024, 0xff)]);
    const repo = await hostileRepo("huge", { "small.txt": "small\n" });
    const base = srcGit(repo.dir, ["rev-parse", "HEAD"]).trim();
    // One blob under four names: AGENTS.md, CLAUDE.md, an agent definition, a plain file.
    await writeTree(repo.dir, { "AGENTS.md": huge, "CLAUDE.md": huge, ".github/crewbot/agents/big.md": huge, "huge.txt": huge, "bin.dat": binary });
    srcGit(repo.dir, ["add", "-A"]);
    srcGit(repo.dir, ["commit", "-q", "-m", "huge"]);
    const head = srcGit(repo.dir, ["rev-parse", "HEAD"]).trim();

    const view = await runJobPath(repo);
    expect(view.checkout.sha).toBe(head);
    expect(view.defaults.skipped.map((s) => s.path).sort()).toEqual([".github/crewbot/agents/big.md", "AGENTS.md", "CLAUDE.md"]);
    expect(view.defaults.skipped.every((s) => /larger than/.test(s.reason))).toBe(true);
    expect(view.instructions).toEqual([]);

    // The readers a CLI run uses on the work tree itself: capped or refused, never loaded whole.
    const instructions = await readRepoInstructions(view.checkout.path);
    expect(instructions.map((s) => s.text.length).every((n) => n < 40 * 1024)).toBe(true);
    await expect(loadDefinitions(view.checkout.path)).rejects.toThrow(/too large/);

    const ctx = await toolContext(view.checkout.path, "read-only");
    const read = await tools.read(ctx, "huge.txt");
    expect(read.isError).toBe(false);
    expect(read.output.length).toBeLessThan(64 * 1024);
    const grep = await tools.grep(ctx, "lorem", "rg", "huge.txt");
    expect(grep.output.length).toBeLessThan(200 * 1024);
    expect((await tools.read(ctx, "bin.dat")).output).toMatch(/binary/);

    // The review diff: the huge file is reported, not printed (it would overflow the buffer).
    const files = parseDiff(await diffBetween(view.mirror, base, head));
    expect(files.find((f) => f.path === "huge.txt")).toMatchObject({ status: "added", binary: true });
    expect(files.find((f) => f.path === "bin.dat")).toMatchObject({ status: "added", binary: true });
  });
});
