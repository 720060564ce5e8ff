/**
 * The app's GitHub writes on the harness's fake clock: every write of an installation starts at
 * least a second after the one before it (GitHub's advice), in the order the job made them — in
 * virtual time, so the test waits for none of it.
 */
import { expect, it } from "vitest";
import { DEFAULT_WRITE_SPACING_MS } from "../../src/report/write-gate.js";
import { issueCommentCreated } from "../fixtures/payloads.js";
import { useNock } from "../helpers/github.js";
import { mockInstallationToken, mockJobComments, mockPermission, startStack } from "./harness.js";

useNock();

it("a /plan's writes (👀, its comment, its edits) are spaced a second apart on the virtual clock, in order", async () => {
  const stack = await startStack([{ text: "Scout report: one README." }, { text: "## Plan\n1. Fix the README" }]);
  const payload = issueCommentCreated("/plan", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
  const edits: string[] = [];
  mockInstallationToken();
  mockPermission("Codertocat", "admin");
  const writes: Array<{ what: string; at: number }> = [];
  mockJobComments({ progressId: 9101, edits, trigger: { id: payload.comment.id }, conversation: [] }).on("request", (req: { method: string; path: string }) => {
    if (req.method !== "GET") writes.push({ what: `${req.method} ${req.path}`, at: stack.clock.now() });
  });

  const job = await stack.runToEnd("issue_comment", payload, "delivery-spacing-1");

  expect(job.state).toBe("succeeded");
  expect(edits.at(-1)).toMatch(/^✅ Done · /);
  expect(writes.map((w) => w.what.split(" ")[0])).toEqual(["POST", "POST", ...edits.map(() => "PATCH")]);
  const gaps = writes.slice(1).map((w, i) => w.at - writes[i]!.at);
  expect(gaps.every((gap) => gap >= DEFAULT_WRITE_SPACING_MS)).toBe(true);
  // The spacing was waited on the fake clock, never in real time.
  expect(stack.clock.sleeps.length).toBeGreaterThan(0);
});
