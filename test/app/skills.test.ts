import { mkdir, symlink } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { issueCommentCreated } from "../fixtures/payloads.js";
import { useNock } from "../helpers/github.js";
import { gitSync } from "../helpers/git-repo.js";
import { mockInstallationToken, mockJobComments, mockPermission, startStack } from "./harness.js";

useNock();

const skill = (name: string, description: string, body: string) => `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;
const PLAN = "## Goal\nRelease.\n\n## Plan\n1. Follow the release skill\n";

describe("/plan with skills on the default branch, end to end", () => {
  it("lists both skills without bodies, gives the body through the skill tool, and names the refused SKILL.md files in the comment", async () => {
    const stack = await startStack(
      [
        { content: [{ type: "tool_use", name: "skill", input: { name: "release" } }] },
        { text: "Scout report: use the release skill." },
        { text: PLAN },
      ],
      {
        files: {
          "README.md": "# r\n",
          ".github/skills/release/SKILL.md": skill("release", "How to cut a release.", "RELEASE-BODY: tag and push."),
          ".claude/skills/testing/SKILL.md": skill("testing", "How to run the tests.", "TESTING-BODY: npm test."),
          ".agents/skills/big/SKILL.md": skill("big", "Too big.", "x".repeat(300 * 1024)),
        },
      },
    );
    await mkdir(path.join(stack.remoteDir, ".agents/skills/linked"), { recursive: true });
    await symlink("/etc/passwd", path.join(stack.remoteDir, ".agents/skills/linked/SKILL.md"));
    gitSync(stack.remoteDir, "add", "-A");
    gitSync(stack.remoteDir, "commit", "-q", "-m", "a symlinked skill");

    const payload = issueCommentCreated("/plan a release", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
    const bodies: string[] = [];
    mockInstallationToken();
    mockPermission("Codertocat", "admin");
    mockJobComments({ progressId: 9001, edits: bodies, trigger: { id: payload.comment.id }, conversation: [], extraEdits: 5 });

    const job = await stack.runToEnd("issue_comment", payload, "delivery-skills-1");

    expect(job.state).toBe("succeeded");
    const first = stack.fake.requests[0]!.body;
    expect(first.tools.map((t: { name: string }) => t.name)).toContain("skill");
    const prompt = JSON.stringify(first.messages[0]);
    expect(prompt).toContain("release: How to cut a release.");
    expect(prompt).toContain("testing: How to run the tests.");
    expect(prompt).not.toContain("RELEASE-BODY");
    expect(prompt).not.toContain("TESTING-BODY");
    expect(JSON.stringify(stack.fake.requests[1]!.body.messages.at(-1))).toContain("RELEASE-BODY: tag and push.");
    const final = bodies.at(-1)!;
    expect(final).toContain(".agents/skills/big/SKILL.md: skipped (larger than 256 KB); that skill is not offered");
    expect(final).toContain(".agents/skills/linked/SKILL.md: skipped (symlink); that skill is not offered");
  });
});
