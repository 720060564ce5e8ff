import { symlink } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { issueCommentCreated } from "../fixtures/payloads.js";
import { useNock } from "../helpers/github.js";
import { gitSync } from "../helpers/git-repo.js";
import type { Script } from "../helpers/fake-anthropic.js";
import { mockInstallationToken, mockJobComments, mockPermission, startStack } from "./harness.js";

useNock();

const PLAN = "## Goal\nTidy.\n\n## Plan\n1. Remove the debug output\n";
const rule = (front: string, body: string) => `---\n${front}\n---\n${body}\n`;

/** A /plan on issue 1, its comments mocked; resolves with the job and every body the comment got. */
async function plan(script: Script, files: Record<string, string>, delivery: string, prepare?: (remoteDir: string) => Promise<void>) {
  const stack = await startStack(script, { files: { "README.md": "# r\n", ...files } });
  if (prepare) {
    await prepare(stack.remoteDir);
    gitSync(stack.remoteDir, "add", "-A");
    gitSync(stack.remoteDir, "commit", "-q", "-m", "prepared");
  }
  const payload = issueCommentCreated("/plan tidy up", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
  const bodies: string[] = [];
  mockInstallationToken();
  mockPermission("Codertocat", "admin");
  // A broken rule file ends the job before it reads the conversation.
  mockJobComments({ progressId: 9001, edits: bodies, trigger: { id: payload.comment.id }, conversation: "maybe", extraEdits: 5 });
  const job = await stack.runToEnd("issue_comment", payload, delivery);
  return { stack, job, bodies };
}

describe("stream rules of the default branch, end to end", () => {
  it("stops the scout's matching reply, sends the rule's body, and the transcript shows the interrupt", async () => {
    const { stack, job } = await plan(
      [{ text: "I would add a TODO(later) and move on." }, { text: "Scout report: the debug output is in src/a.ts." }, { text: PLAN }],
      { ".github/crewbot/rules/no-todo.md": rule("name: no-todo\ntrigger: 'TODO\\(later\\)'\nagents: [scout]", "Do not defer work with TODO(later): say what is missing instead.") },
      "delivery-rules-1",
    );
    expect(job.state).toBe("succeeded");
    const second = stack.fake.requests[1]!.body;
    expect(second.messages).toHaveLength(1);
    expect(JSON.stringify(second.messages[0].content.at(-1))).toContain(
      '<system-interrupt reason=\\"rule\\" rule=\\"no-todo\\">\\nDo not defer work with TODO(later): say what is missing instead.\\n</system-interrupt>',
    );
    // Once per job: the planner's request carries no second interrupt, and the planner is not watched.
    expect(JSON.stringify(stack.fake.requests[2]!.body.messages)).not.toContain("system-interrupt");
    const entries = (await stack.crewbot.transcripts.store.read(job.id)) as unknown as Array<Record<string, unknown>>;
    expect(JSON.stringify(entries)).toContain('"type":"rule_interrupt","agent":"scout","turn":1,"rule":"no-todo"');
  });

  it.each([
    ["an invalid trigger", "name: broken\ntrigger: '[unclosed'", ".github/crewbot/rules/bad.md: trigger: not a usable regular expression: missing ]"],
    ["a trigger that could run too long", "name: slow\ntrigger: '((a{100}){100}){100}'", ".github/crewbot/rules/bad.md: trigger: not a usable regular expression: invalid repetition size: {100} (it could run for too long)"],
    ["a backreference", "name: back\ntrigger: '(\\w+) \\1'", "(lookarounds and backreferences are not supported: they can make matching run for too long)"],
  ])("%s fails the job before any request, the comment naming the file", async (_what, front, named) => {
    const { stack, job, bodies } = await plan([], { ".github/crewbot/rules/bad.md": rule(front, "body") }, `delivery-rules-${front.length}`);
    expect(job.state).toBe("failed");
    expect(stack.fake.requests).toHaveLength(0);
    expect(bodies.at(-1)).toContain("Failed");
    expect(bodies.at(-1)).toContain(named);
  });

  it("a symlinked rule file fails the job naming it", async () => {
    const { job, bodies } = await plan([], { ".github/crewbot/rules/ok.md": rule("name: ok\ntrigger: x", "body") }, "delivery-rules-link", async (dir) => {
      await symlink("/etc/passwd", path.join(dir, ".github/crewbot/rules/linked.md"));
    });
    expect(job.state).toBe("failed");
    expect(bodies.at(-1)).toContain(".github/crewbot/rules/linked.md: file: refused: symlink");
  });
});
