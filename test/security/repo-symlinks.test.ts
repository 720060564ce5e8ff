/**
 * Attack: a repository full of symlinks to the host — `/etc/passwd`, `/etc`, the app's data dir,
 * the mirror — at the top level, in `.github/crewbot/agents/`, as `AGENTS.md` (at the root and nested,
 * and as Copilot's instruction files), as the prompts dir,
 * and as a directory the worker writes into. Nothing of the host may be read or written through them.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadDefinitions } from "../../src/chain/definitions.js";
import { localInstructions } from "../../src/cli/local-instructions.js";
import { readRepoInstructions } from "../../src/context/repo-instructions.js";
import { commitStep } from "../../src/workspace/commit.js";
import { serve } from "../workspace/fixture.js";
import { gitSync } from "../helpers/git-repo.js";
import { everythingRead, HOST_SECRET, hostileRepo, link, makeHost, outputs, runJobPath, snapshot, toolContext, tools } from "./repo-hostile.js";

const BOT = { name: "crewbot[bot]", email: "1+crewbot[bot]@users.noreply.github.com" };
/** What the real /etc/passwd starts with on every Linux host. */
const PASSWD = "root:x:0:0";

async function symlinkRepo() {
  const host = await makeHost();
  const served = await serve();
  const mirrorPath = path.join(served.dataDir, "mirrors", "mallory", "links.git");
  const repo = await hostileRepo(
    "links",
    { "README.md": "# links\n", "src/a.ts": "export const a = 1;\n" },
    async (dir) => {
      await link("/etc/passwd", path.join(dir, "passwd"));
      await link("/etc", path.join(dir, "etc"));
      await link(path.join(host.etc, "secret.txt"), path.join(dir, "secret"));
      await link("../../../../../../../../../../etc/passwd", path.join(dir, "relative-passwd"));
      await link(served.dataDir, path.join(dir, "data"));
      await link(mirrorPath, path.join(dir, "mirror"));
      await link(path.join(mirrorPath, "config"), path.join(dir, "mirror-config"));
      await link(".git/config", path.join(dir, "own-git-config"));
      await link(host.etc, path.join(dir, "out")); // a directory the worker writes into
      await link(path.join(host.etc, "new-dir"), path.join(dir, "dangling-out"));
      await link(path.join(host.etc, "secret.txt"), path.join(dir, "AGENTS.md"));
      await link("/etc/passwd", path.join(dir, "CLAUDE.md"));
      await link(path.join(host.etc, "secret.txt"), path.join(dir, "src/AGENTS.md"));
      await link("/etc/passwd", path.join(dir, "src/db/CLAUDE.md"));
      await link(path.join(host.etc, "passwd"), path.join(dir, ".github/copilot-instructions.md"));
      await link("../../../etc/passwd", path.join(dir, ".github/instructions/all.instructions.md"));
      await link(path.join(host.etc, "passwd"), path.join(dir, ".github/crewbot/agents/evil.md"));
      await link("/etc/passwd", path.join(dir, ".github/crewbot/agents/etc.md"));
      await link(host.etc, path.join(dir, ".github/crewbot/prompts"));
      await link("/etc/passwd", path.join(dir, ".github/crewbot.yml"));
    },
    served,
  );
  return { host, repo, mirrorPath };
}

describe("repository symlinks to the host", () => {
  it("the job path (mirror, checkout, default-branch files, definitions, instructions) reads nothing through them", async () => {
    const { host, repo } = await symlinkRepo();
    const before = await snapshot(host.etc);
    const view = await runJobPath(repo);

    // git checks the links out as links (that is what the repository holds) …
    expect(gitSync(view.checkout.path, "ls-files", "-s", "--", "AGENTS.md")).toMatch(/^120000 /);
    // … but the default-branch reader writes regular blobs only, and says what it skipped.
    expect(view.defaults.files).toEqual([]);
    expect(view.defaults.skipped.map((s) => `${s.path}: ${s.reason}`).sort()).toEqual([
      ".github/copilot-instructions.md: symlink",
      ".github/crewbot.yml: symlink",
      ".github/crewbot/agents/etc.md: symlink",
      ".github/crewbot/agents/evil.md: symlink",
      ".github/crewbot/prompts: symlink",
      ".github/instructions/all.instructions.md: symlink",
      "AGENTS.md: symlink",
      "CLAUDE.md: symlink",
      "src/AGENTS.md: symlink",
      "src/db/CLAUDE.md: symlink",
    ]);
    expect(view.instructions).toEqual([]);
    const read = everythingRead(view);
    expect(read).not.toContain(HOST_SECRET);
    expect(read).not.toContain(PASSWD);
    expect(await snapshot(host.etc)).toEqual(before);
  });

  it("the readers used on a checkout itself (CLI) refuse or skip every link out of it", async () => {
    const { repo } = await symlinkRepo();
    const view = await runJobPath(repo);
    expect(await readRepoInstructions(view.checkout.path)).toEqual([]);
    // `crewbot run` reads the nested ones of its own checkout: each link out is refused too.
    expect(await localInstructions(view.checkout.path, false)).toEqual([]);
    // The prompts dir is a link out: refused loudly rather than read.
    await expect(loadDefinitions(view.checkout.path)).rejects.toThrow(/points outside the repository/);
  });

  it("read, ls, find and grep on the checkout show nothing of the host, the data dir or the mirror", async () => {
    const { repo } = await symlinkRepo();
    const view = await runJobPath(repo);
    const ctx = await toolContext(view.checkout.path, "read-only");
    const results = [];
    for (const p of ["passwd", "etc/passwd", "secret", "relative-passwd", "data", "mirror/config", "mirror-config", "own-git-config", "AGENTS.md", "CLAUDE.md", ".github/crewbot/agents/evil.md", "out/secret.txt"]) {
      const r = await tools.read(ctx, p);
      expect(r.isError, p).toBe(true);
      results.push(r);
    }
    for (const p of ["etc", "data", "mirror", "out", ".github/crewbot/prompts"]) {
      const r = await tools.ls(ctx, p);
      expect(r.isError, p).toBe(true);
      results.push(r);
    }
    const top = await tools.ls(ctx);
    expect(top.output).toMatch(/^passwd -> \/etc\/passwd \(outside the checkout: not readable\)$/m);
    results.push(top);
    const found = await tools.find(ctx, "**/*");
    expect(found.output.split("\n").sort()).toEqual(["README.md", "src/a.ts"]);
    results.push(found);
    for (const backend of ["rg", "js"] as const) {
      // Character classes, so the pattern echoed in "No matches for …" is not itself a leak.
      const hit = await tools.grep(ctx, "root:x:0:[0]|HOST-SECRE[T]|repositoryformatversio[n]", backend);
      expect(hit.output, backend).toMatch(/^No matches/);
      results.push(hit, await tools.grep(ctx, "root", backend, "etc"));
    }
    const text = outputs(results);
    expect(text).not.toContain(HOST_SECRET);
    expect(text).not.toContain(PASSWD);
    expect(text).not.toContain("repositoryformatversion");
  });

  it("edit and write never write through a link, and a commit afterwards leaves the host alone", async () => {
    const { host, repo, mirrorPath } = await symlinkRepo();
    const view = await runJobPath(repo);
    const ctx = await toolContext(view.checkout.path, "write");
    const hostBefore = await snapshot(host.etc);
    const mirrorBefore = await snapshot(mirrorPath);
    const passwdBefore = await readFile("/etc/passwd", "utf8");

    const attempts = [
      await tools.write(ctx, "out/pwned.txt", "pwned\n"),
      await tools.write(ctx, "out/secret.txt", "overwritten\n"),
      await tools.write(ctx, "dangling-out/x.txt", "x\n"),
      await tools.write(ctx, "secret", "overwritten\n"),
      await tools.write(ctx, "AGENTS.md", "overwritten\n"),
      await tools.write(ctx, "data/mirrors/mallory/links.git/hooks/post-checkout", "#!/bin/sh\n"),
      await tools.write(ctx, "mirror/config", "[core]\n\tfsmonitor = touch /tmp/x\n"),
      await tools.write(ctx, "own-git-config", `[core]\n\tfsmonitor = ${host.touch("fsmonitor")}\n`),
      await tools.write(ctx, "etc/crewbot-pwned", "x\n"),
      await tools.edit(ctx, "secret", HOST_SECRET, "gone"),
      await tools.edit(ctx, "mirror-config", "bare = true", "bare = false"),
      await tools.edit(ctx, "passwd", "root", "toor"),
    ];
    for (const r of attempts) expect(r.isError, r.output).toBe(true);
    expect(outputs(attempts)).not.toContain(HOST_SECRET);

    // A legitimate change, committed as a job step would be.
    expect((await tools.write(ctx, "src/b.ts", "export const b = 2;\n")).isError).toBe(false);
    const step = await commitStep({ checkout: view.checkout.path, step: "Add b", author: BOT });
    expect(step.files).toEqual(["src/b.ts"]);

    expect(await snapshot(host.etc)).toEqual(hostBefore);
    expect(await snapshot(mirrorPath)).toEqual(mirrorBefore);
    expect(await readFile("/etc/passwd", "utf8")).toBe(passwdBefore);
    expect(await host.leftMarkers()).toEqual([]);
  });
});
