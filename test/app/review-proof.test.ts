/**
 * Findings with proof, end to end: the reviewer proves a finding with `prove` (run in the sandbox
 * on a copy of the head and of the merge base), the posted comment shows 🔬 Reproduced with the
 * command, the output and the reproducer, the check run counts it, and `review.failOn:
 * reproduced` fails the check on it. `review.prove: off` takes the tool away.
 */
import { describe, expect, it } from "vitest";
import { gitSync } from "../helpers/git-repo.js";
import { useNock } from "../helpers/github.js";
import type { FakeReply } from "../helpers/fake-anthropic.js";
import { startStack } from "./harness.js";
import { deliver, GREET, mockReviewJob, push, type Traffic } from "./review-harness.js";

useNock();

const REPRO = { path: "checks/line10.sh", content: "grep -q 'const line10 = 10;' greet.js || { echo 'line10 is not the number 10'; exit 1; }\n" };
const use = (name: string, input: unknown): FakeReply => ({ content: [{ type: "tool_use", name, input }] });
const SUBMIT = use("submit_review", {
  summary: "line10 became a string.",
  findings: [
    { path: "greet.js", line: 10, severity: "critical", body: "`line10` is a string now; callers add it to numbers." },
    { path: "greet.js", line: 11, severity: "warning", body: "`line11` is not tested." },
  ],
});

async function reviewed(script: FakeReply[], config: string) {
  const stack = await startStack(script, { files: { "greet.js": GREET } });
  gitSync(stack.remoteDir, "branch", "feature");
  const sha = await push(stack, { "greet.js": GREET.replace("const line10 = 10;", 'const line10 = "10";').replace("const line11 = 11;", "const line11 = 11; ") }, "feature");
  const t: Traffic = { reviews: [], checks: [], rejected: [] };
  mockReviewJob(stack, t, { checkId: 960, review: true, config });
  const job = await deliver(stack, "opened", sha, "pr-proof");
  expect(job.state).toBe("succeeded");
  expect(t.rejected).toEqual([]);
  return { t, stack };
}

const withoutMarker = (body: string) => body.replace(/<!-- crewbot:finding:[0-9a-f]{16} -->$/, "<marker>");

describe("findings with proof", () => {
  it("a reproduced finding is posted with its proof, counted, and fails the check with failOn: reproduced", async () => {
    const prove = use("prove", { finding: 0, severity: "critical", files: [REPRO], command: "bash checks/line10.sh", behaviourChange: true });
    const { t, stack } = await reviewed([prove, SUBMIT], "review:\n  failOn: reproduced\n");

    const tools = (stack.fake.requests[0]!.body.tools as Array<{ name: string }>).map((tool) => tool.name);
    expect(tools).toContain("prove");
    expect(JSON.stringify(stack.fake.requests[1]!.body.messages.at(-1))).toContain("Finding 0: REPRODUCED — the command failed on the head (exit code 1) and passed on the base.");
    expect(t.reviews[0].comments.map((c: { body: string }) => withoutMarker(c.body))).toEqual([
      [
        "**Critical** — `line10` is a string now; callers add it to numbers.",
        "",
        "🔬 **Reproduced**: `bash checks/line10.sh` — the command failed on the head (exit code 1) and passed on the base.",
        "",
        "```text",
        "line10 is not the number 10",
        "```",
        "",
        "<details><summary>Reproducer: `checks/line10.sh`</summary>",
        "",
        "`checks/line10.sh`",
        "",
        "```text",
        "grep -q 'const line10 = 10;' greet.js || { echo 'line10 is not the number 10'; exit 1; }",
        "```",
        "",
        "</details>",
        "",
        "<marker>",
      ].join("\n"),
      "**Warning** — `line11` is not tested.\n\n_unverified: no reproducer._\n\n<marker>",
    ]);
    const done = t.checks.at(-1)!.body;
    expect(done).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(done.output.summary).toContain("- Proof: 1 reproduced · 1 unverified · 0 refuted.\n");
    expect(done.output.summary).toContain("- Failing: 1 open reproduced finding (review.failOn: reproduced):\n  - **Critical** `greet.js:10` — ");
  });

  it("with failOn: reproduced, unverified critical findings pass the check; prove: off offers no prove and says so", async () => {
    const { t, stack } = await reviewed([SUBMIT], "review:\n  failOn: reproduced\n  prove: off\n");

    const tools = (stack.fake.requests[0]!.body.tools as Array<{ name: string }>).map((tool) => tool.name);
    expect(tools).toContain("bash");
    expect(tools).not.toContain("prove");
    expect(withoutMarker(t.reviews[0].comments[0].body)).toBe("**Critical** — `line10` is a string now; callers add it to numbers.\n\n<marker>");
    const done = t.checks.at(-1)!.body;
    expect(done).toMatchObject({ status: "completed", conclusion: "success" });
    expect(done.output.summary).toContain("- Proof: none run (review.prove: off).\n");
    expect(done.output.summary).toContain("- Passing: no open reproduced finding (review.failOn: reproduced).");
  });
});
