import { describe, expect, it } from "vitest";
import { detectRepoFeatures, featureNotes, type RepoFeatures } from "../../src/workspace/repo-features.js";
import { gitSync, makeRepo } from "../helpers/git-repo.js";

const POINTER = "version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 12345\n";

describe("detectRepoFeatures", () => {
  it("finds submodules (gitlinks), LFS attributes and LFS pointer files in the checked-out tree", async () => {
    const dir = await makeRepo({
      ".gitmodules": '[submodule "libs/vendor"]\n\tpath = libs/vendor\n\turl = https://github.com/o/vendor.git\n',
      ".gitattributes": "# binaries\n*.psd filter=lfs diff=lfs merge=lfs -text\n",
      "art/logo.psd": POINTER,
      "README.md": "Mentions version https://git-lfs.github.com/spec/v1 in prose, not a pointer\n",
      "docs/.gitattributes": "*.md text\n",
    });
    gitSync(dir, "update-index", "--add", "--cacheinfo", `160000,${"a".repeat(40)},libs/vendor`);
    gitSync(dir, "commit", "-q", "-m", "submodule");

    expect(await detectRepoFeatures(dir)).toEqual({
      submodules: ["libs/vendor"],
      lfsAttributes: [".gitattributes"],
      lfsPointers: ["art/logo.psd"],
      lfsPointerCount: 1,
    });
  });

  it("finds nothing in a plain repository", async () => {
    const dir = await makeRepo({ "a.txt": "a\n", ".gitattributes": "# *.bin filter=lfs\n" });
    expect(featureNotes(await detectRepoFeatures(dir))).toEqual([]);
  });
});

describe("featureNotes", () => {
  const none: RepoFeatures = { submodules: [], lfsAttributes: [], lfsPointers: [], lfsPointerCount: 0 };
  it.each<[string, RepoFeatures, string[]]>([
    ["nothing", none, []],
    [
      "one submodule and one pointer",
      { submodules: ["libs/vendor"], lfsAttributes: [".gitattributes"], lfsPointers: ["art/logo.psd"], lfsPointerCount: 1 },
      [
        "This repository has a Git submodule (`libs/vendor`); crewbot does not fetch submodules, so its directory is empty in the checkout",
        "This repository uses Git LFS (`filter=lfs` in `.gitattributes`); crewbot does not fetch LFS content, so 1 file is a pointer file (`art/logo.psd`), not its content",
      ],
    ],
    [
      "many of each",
      { submodules: ["a", "b"], lfsAttributes: [], lfsPointers: Array.from({ length: 10 }, (_, i) => `f${i}`), lfsPointerCount: 12 },
      [
        "This repository has 2 Git submodules (`a`, `b`); crewbot does not fetch submodules, so their directories are empty in the checkout",
        "This repository uses Git LFS; crewbot does not fetch LFS content, so 12 files are pointer files (`f0`, `f1`, `f2`, `f3`, `f4`, `f5`, `f6`, `f7`, `f8`, `f9` and 2 more), not their content",
      ],
    ],
    ["attributes only", { ...none, lfsAttributes: ["x/.gitattributes"] }, ["This repository uses Git LFS (`filter=lfs` in `x/.gitattributes`); crewbot does not fetch LFS content"]],
  ])("%s", (_name, features, expected) => {
    expect(featureNotes(features)).toEqual(expected);
  });
});
