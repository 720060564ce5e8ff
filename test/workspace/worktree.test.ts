import { existsSync } from "node:fs";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { addWorktree, diffAgainst, removeWorktree, repoTop } from "../../src/workspace/worktree.js";
import { gitSync, makeRepo, tempDir } from "../helpers/git-repo.js";

describe("worktree", () => {
  it("works on a fresh worktree of HEAD and never touches the user's working tree", async () => {
    const repo = await makeRepo({ "a.txt": "one\n" });
    await writeFile(path.join(repo, "a.txt"), "uncommitted\n");
    const parent = await tempDir();
    const wt = await addWorktree(repo, parent, "checkout");

    expect(await readFile(path.join(wt.path, "a.txt"), "utf8")).toBe("one\n");
    await writeFile(path.join(wt.path, "a.txt"), "two\n");
    await writeFile(path.join(wt.path, "new.txt"), "new\n");
    const diff = await diffAgainst(wt.path, wt.base);
    expect(diff).toContain("-one\n+two");
    expect(diff).toContain("new file mode");
    expect(diff).toContain("+new");

    expect(await readFile(path.join(repo, "a.txt"), "utf8")).toBe("uncommitted\n");
    expect(gitSync(repo, "status", "--porcelain")).toBe(" M a.txt\n");

    await removeWorktree(repo, wt.path);
    expect(existsSync(wt.path)).toBe(false);
    expect(gitSync(repo, "worktree", "list")).not.toContain(wt.path);
  });

  it("never runs the repository's hooks", async () => {
    const repo = await makeRepo({ "a.txt": "one\n" });
    const marker = path.join(await tempDir(), "hook-ran");
    const hooks = path.join(repo, ".git", "hooks");
    await mkdir(hooks, { recursive: true });
    await writeFile(path.join(hooks, "post-checkout"), `#!/bin/sh\ntouch ${marker}\n`);
    await chmod(path.join(hooks, "post-checkout"), 0o755);

    const wt = await addWorktree(repo, await tempDir(), "checkout");
    await removeWorktree(repo, wt.path);
    expect(existsSync(marker)).toBe(false);
  });

  it("names a directory that is not a repository", async () => {
    const dir = await tempDir();
    await expect(repoTop(dir)).rejects.toThrow(/is not a git repository/);
  });
});
