/**
 * `/implement` on a repository as big ones are: over the partial-clone size (a blob:none mirror),
 * with a submodule and Git LFS files, which crewbot does not fetch — and says so.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { issueCommentCreated } from "../fixtures/payloads.js";
import { gitSync } from "../helpers/git-repo.js";
import { useNock } from "../helpers/github.js";
import { mockBotUser, mockInstallationToken, mockJobComments, mockPermission, REPO_NAME, REPO_OWNER, REPO_PATH, startStack, TOKEN } from "./harness.js";

useNock();

const use = (name: string, input: unknown) => ({ type: "tool_use" as const, name, input });
const POINTER = "version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 12345\n";
const SUBMODULE_NOTE = "This repository has a Git submodule (`libs/vendor`); crewbot does not fetch submodules, so its directory is empty in the checkout";
const LFS_NOTE =
  "This repository uses Git LFS (`filter=lfs` in `.gitattributes`); crewbot does not fetch LFS content, so 1 file is a pointer file (`art/logo.psd`), not its content";

describe("/implement on a large repository with a submodule and LFS files", () => {
  it("works from a partial mirror and tells the agents and the final comment what the checkout lacks", async () => {
    const stack = await startStack(
      [
        { text: "Scout report." },
        { text: "## Plan\n1. Fix the README" },
        { content: [use("edit", { path: "README.md", oldText: "commmit", newText: "commit" })] },
        { text: "[DONE:1]\n## Completed\nDone.\n## Files Changed\n- README.md\n## Notes\nNone." },
      ],
      {
        files: {
          "README.md": "# Hello commmit\n",
          "old.txt": "an old file\n",
          ".gitattributes": "*.psd filter=lfs diff=lfs merge=lfs -text\n",
          "art/logo.psd": POINTER,
          ".gitmodules": '[submodule "libs/vendor"]\n\tpath = libs/vendor\n\turl = https://github.com/o/vendor.git\n',
        },
      },
    );
    const remote = stack.remoteDir;
    gitSync(remote, "update-index", "--add", "--cacheinfo", `160000,${"a".repeat(40)},libs/vendor`);
    gitSync(remote, "rm", "-q", "old.txt");
    gitSync(remote, "commit", "-q", "-m", "vendor as a submodule");
    const oldBlob = gitSync(remote, "rev-parse", "HEAD~1:old.txt").trim();
    // As GitHub does: partial clones and fetches of objects by id are served.
    gitSync(remote, "config", "uploadpack.allowFilter", "true");
    gitSync(remote, "config", "uploadpack.allowAnySHA1InWant", "true");

    const payload = issueCommentCreated("/implement", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
    payload.repository.size = 3 * 1024 * 1024; // KB: 3 GB, over the partial-clone threshold
    mockInstallationToken();
    mockBotUser();
    mockPermission("Codertocat", "write");
    const edits: string[] = [];
    let prBody: any;
    mockJobComments({ progressId: 95, edits, trigger: { id: payload.comment.id } })
      .post(`${REPO_PATH}/pulls`, (b) => ((prBody = b), true))
      .reply(201, { number: 30, html_url: "https://github.com/Codertocat/Hello-World/pull/30" });

    const job = await stack.runToEnd("issue_comment", payload, "implement-large-repo");

    expect(job.outcome).toMatch(/^✅ Done/);
    const mirror = path.join(stack.dataDir, "mirrors", REPO_OWNER, `${REPO_NAME}.git`);
    expect(gitSync(mirror, "config", "extensions.partialClone").trim()).toBe("origin");
    expect(gitSync(mirror, "config", "remote.origin.promisor").trim()).toBe("true");
    expect(gitSync(mirror, "rev-list", "--objects", "--missing=print", "--all").split("\n")).toContain(`?${oldBlob}`); // history without old contents
    expect(gitSync(mirror, "config", "--list")).not.toContain(TOKEN);

    // The work was pushed from the partial checkout.
    const branch = "crewbot/issue-1-spelling-error-in-the-readme-file";
    expect(gitSync(remote, "show", `${branch}:README.md`)).toBe("# Hello commit\n");
    expect(gitSync(remote, "ls-tree", branch, "libs/vendor").trim()).toBe(`160000 commit ${"a".repeat(40)}\tlibs/vendor`);

    // Every agent was told, as data in its context.
    for (const request of stack.fake.requests) {
      const text = JSON.stringify(request.body.messages);
      expect(text).toContain("what the checkout lacks");
      expect(text).toContain(SUBMODULE_NOTE);
      expect(text).toContain("crewbot does not fetch LFS content");
    }
    const final = edits.at(-1)!;
    expect(final).toContain(`- ${SUBMODULE_NOTE}`);
    expect(final).toContain(`- ${LFS_NOTE}`);
    expect(prBody.body).toContain(`## Notes\n- ${SUBMODULE_NOTE}\n- ${LFS_NOTE}`);
  });
});
