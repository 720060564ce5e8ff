/**
 * A new read-only job kind that answers in its progress comment is its row and its chain: a
 * fixture's `explain` row (with an `answer`) and the repository's `explain` prompt, no job file.
 * The command is parsed from the row, enqueued, and run by the answer job with the row's chain.
 */
import { describe, expect, it, vi } from "vitest";
import type { JobKindRow } from "../../src/queue/job-kinds.js";
import { issueCommentCreated } from "../fixtures/payloads.js";
import { useNock } from "../helpers/github.js";
import { mockInstallationToken, mockJobComments, mockPermission, startStack } from "./harness.js";

vi.mock("../../src/queue/job-kinds.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/queue/job-kinds.js")>();
  const explain: JobKindRow = {
    command: { onIssues: true, config: "`/explain` (a test's kind): explains code, read-only.", help: [{ usage: "/explain <what>", where: "issue", what: "Explains the code." }] },
    answer: { chain: "explain", task: "Explain" },
  };
  const table = { ...real.JOB_KINDS, explain };
  return { ...real, JOB_KINDS: table, ...real.jobKindsOf(table) };
});

useNock();

const EXPLAIN_CHAIN = "---\ndescription: Explain code. Read-only.\n---\n# explain\n\n1. answerer: Explain, in plain words, what is asked below.\n\n   Asked:\n   {task}\n";

describe("a job kind added as a row with an answer", () => {
  it("is parsed as a command, enqueued, and answered in the progress comment by the row's chain, read-only", async () => {
    const stack = await startStack([{ text: "It greets whoever asks." }], {
      files: { "README.md": "# Hello\n", "greet.js": "export const greet = (who) => `hi ${who}`;\n", ".github/crewbot/prompts/explain.md": EXPLAIN_CHAIN },
    });
    const payload = issueCommentCreated("/explain what greet.js does", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
    mockInstallationToken();
    mockPermission("Codertocat", "write");
    const edits: string[] = [];
    mockJobComments({ progressId: 4101, edits, trigger: { id: payload.comment.id } });

    const job = await stack.runToEnd("issue_comment", payload, "explain-1");

    expect(job).toMatchObject({ kind: "explain", state: "succeeded" });
    expect(edits.at(-1)).toMatch(/^✅ Done · /);
    expect(edits.at(-1)).toContain("It greets whoever asks.");
    // The row's chain ran: its prompt and the row's task, one read-only agent.
    const first = JSON.stringify(stack.fake.requests[0]!.body.messages[0]);
    expect(first).toContain("Explain, in plain words, what is asked below.");
    expect(first).toContain("what greet.js does");
    expect(first).toContain("Explain issue #1");
    const tools = (stack.fake.requests[0]!.body.tools as Array<{ name: string }>).map((t) => t.name);
    expect(tools).not.toContain("write");
    expect(tools).not.toContain("edit");
  });
});
