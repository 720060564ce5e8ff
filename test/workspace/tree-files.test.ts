import { symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fileAt, TreeFileTooLarge } from "../../src/workspace/tree-files.js";
import { gitSync, makeRepo } from "../helpers/git-repo.js";

describe("fileAt: a file as a commit holds it", () => {
  it("reads regular files of the commit, never its working tree, links or folders", async () => {
    const root = await makeRepo({ "package-lock.json": '{ "lockfileVersion": 3 }\n', "packages/web/package.json": "{}\n" });
    await symlink("/etc/passwd", path.join(root, "linked.json"));
    gitSync(root, "add", "-A");
    gitSync(root, "commit", "-q", "-m", "link");
    const sha = gitSync(root, "rev-parse", "HEAD").trim();
    // The working tree changes after the commit: what is read is the commit's.
    await writeFile(path.join(root, "package-lock.json"), "changed on disk\n");
    expect(await fileAt(root, sha, "package-lock.json")).toBe('{ "lockfileVersion": 3 }\n');
    expect(await fileAt(root, sha, "packages/web/package.json")).toBe("{}\n");
    expect(await fileAt(root, sha, "linked.json")).toBeUndefined();
    expect(await fileAt(root, sha, "packages")).toBeUndefined();
    expect(await fileAt(root, sha, "missing.json")).toBeUndefined();
    // A path is a name, never a pattern.
    expect(await fileAt(root, sha, "*.json")).toBeUndefined();
  });

  it("refuses a file over the cap instead of reading it", async () => {
    const root = await makeRepo({ "package-lock.json": "x".repeat(2048) });
    const sha = gitSync(root, "rev-parse", "HEAD").trim();
    await expect(fileAt(root, sha, "package-lock.json", 1024)).rejects.toBeInstanceOf(TreeFileTooLarge);
  });
});
