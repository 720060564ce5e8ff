import { symlink } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { blobLines, MAX_LINKED_FILE_BYTES } from "../../src/workspace/blob-lines.js";
import { gitSync, makeRepo } from "../helpers/git-repo.js";

describe("blobLines: what a commit holds at the cited paths", () => {
  it("counts a text file's lines as GitHub numbers them, and refuses what has no lines to link", async () => {
    const root = await makeRepo({
      "src/a.ts": "one\ntwo\nthree\n",
      "src/no-newline.ts": "one\ntwo",
      "empty.txt": "",
      "bin.dat": "a\0b\n",
      "big.txt": "x\n".repeat(MAX_LINKED_FILE_BYTES / 2 + 1),
    });
    await symlink("src/a.ts", path.join(root, "link.ts"));
    gitSync(root, "add", "-A");
    gitSync(root, "commit", "-q", "-m", "link");
    const sha = gitSync(root, "rev-parse", "HEAD").trim();
    const found = await blobLines(root, sha, ["src/a.ts", "src/no-newline.ts", "empty.txt", "bin.dat", "big.txt", "link.ts", "src", "nope.ts", "src/*"]);
    expect(Object.fromEntries(found)).toEqual({
      "src/a.ts": { kind: "text", lines: 3 },
      "src/no-newline.ts": { kind: "text", lines: 2 },
      "empty.txt": { kind: "text", lines: 0 },
      "bin.dat": { kind: "binary" },
      "big.txt": { kind: "too-large", bytes: MAX_LINKED_FILE_BYTES + 2 },
      "link.ts": { kind: "missing" },
      src: { kind: "missing" },
      "nope.ts": { kind: "missing" },
      "src/*": { kind: "missing" },
    });
  });

  it("reads the commit, not the working tree: a file added after it is not there", async () => {
    const root = await makeRepo({ "a.ts": "1\n" });
    const first = gitSync(root, "rev-parse", "HEAD").trim();
    gitSync(root, "mv", "a.ts", "b.ts");
    gitSync(root, "commit", "-q", "-m", "move");
    expect(Object.fromEntries(await blobLines(root, first, ["a.ts", "b.ts"]))).toEqual({ "a.ts": { kind: "text", lines: 1 }, "b.ts": { kind: "missing" } });
  });
});
