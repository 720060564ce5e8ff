import { describe, expect, it } from "vitest";
import type { CommentPayload } from "../../src/triggers/comment-command.js";
import { approvalDecision } from "../../src/triggers/on-comment-edited.js";
import { INSTALLATION_ID, issueCommentEdited } from "../fixtures/payloads.js";

const approval = { approved: true as const, jobId: "planjob", plan: [{ n: 1, text: "Do it" }], by: "Codertocat", commentId: 5 };

describe("approvalDecision", () => {
  it("makes one implement job per plan, carrying exactly the approved steps", () => {
    const payload = issueCommentEdited("a", "b") as unknown as CommentPayload;
    expect(approvalDecision(payload, approval)).toMatchObject({
      action: "approve",
      planCommentId: 5,
      by: "Codertocat",
      job: {
        deliveryId: "approval:planjob",
        kind: "implement",
        target: { installationId: INSTALLATION_ID, owner: "Codertocat", repo: "Hello-World", isPullRequest: false },
        trigger: { sender: "Codertocat", request: "" },
        approvedPlan: { planJobId: "planjob", steps: [{ n: 1, text: "Do it" }] },
      },
    });
  });

  it("answers, rather than runs, an approved plan on a pull request", () => {
    const payload = issueCommentEdited("a", "b", { onPullRequest: true }) as unknown as CommentPayload;
    expect(approvalDecision(payload, approval)).toMatchObject({ action: "reply", reason: "approval on a pull request" });
  });
});
