import { describe, expect, it } from "vitest";
import { decide, preflight, type CommentPayload } from "../../src/triggers/comment-command.js";
import { INSTALLATION_ID, issueCommentCreated, reviewCommentCreated } from "../fixtures/payloads.js";

/** `issue_comment.created` on issue #1; `onPr` makes it a PR's conversation comment. */
const onIssue = (body: string, edit: (p: any) => void = () => {}) => {
  const p = issueCommentCreated(body);
  edit(p);
  return p as unknown as CommentPayload;
};
const onPr = (body: string, edit: (p: any) => void = () => {}) =>
  onIssue(body, (p) => {
    p.issue.pull_request = { url: "https://api.github.com/repos/Codertocat/Hello-World/pulls/1" };
    edit(p);
  });

const go = (p: CommentPayload) => {
  const pre = preflight(p);
  if (!pre.go) throw new Error(pre.reason);
  return pre;
};

const REVIEW_ON_ISSUE = { action: "reply", body: "`/review` works on pull requests; on an issue, try `/plan`.", reason: "review on an issue" };

describe("decide: /review", () => {
  it("enqueues a review job on a PR, in the review group, superseding", () => {
    const p = onPr("/review look at the error handling");
    expect(decide(p, go(p), "write", "delivery-7")).toEqual({
      action: "enqueue",
      job: {
        deliveryId: "delivery-7",
        kind: "review",
        group: "review",
        supersede: true,
        target: { installationId: INSTALLATION_ID, owner: "Codertocat", repo: "Hello-World", number: 1, isPullRequest: true },
        trigger: {
          sender: "Codertocat",
          senderId: 21031067,
          request: "look at the error handling",
          commentId: 492700400,
          commentKind: "issue_comment",
          commentCreatedAt: "2019-05-15T15:20:21Z",
        },
        repo: { cloneUrl: "https://github.com/Codertocat/Hello-World.git", defaultBranch: "master", private: false, size: 0 },
        subject: { title: "Spelling error in the README file", body: "It looks like you accidently spelled 'commit' with two 't's.", author: "Codertocat", createdAt: (p as any).issue.created_at },
      },
    });
  });

  it("enqueues /review from a review comment (payload.pull_request), with its comment kind", () => {
    const p = reviewCommentCreated("/REVIEW") as unknown as CommentPayload;
    expect(decide(p, go(p), "maintain", "delivery-8", "review_comment")).toEqual({
      action: "enqueue",
      job: {
        deliveryId: "delivery-8",
        kind: "review",
        group: "review",
        supersede: true,
        target: { installationId: INSTALLATION_ID, owner: "Codertocat", repo: "Hello-World", number: 2, isPullRequest: true },
        trigger: {
          sender: "Codertocat",
          senderId: 21031067,
          request: "",
          commentId: 284312630,
          commentKind: "review_comment",
          commentCreatedAt: "2019-05-15T15:20:37Z",
          // GitHub's example is an outdated comment without a line.
          reviewComment: { path: "README.md", diffHunk: "@@ -1 +1 @@\n-# Hello-World" },
        },
        repo: { cloneUrl: "https://github.com/Codertocat/Hello-World.git", defaultBranch: "master", private: false, size: 0 },
        subject: { title: "Update the README with new information.", body: "This is a pretty simple change that we need to pull into master.", author: "Codertocat", createdAt: (p as any).pull_request.created_at },
      },
    });
  });

  it.each([
    ["/review", "write"],
    ["/review please", "admin"],
    ["/Review\nmore lines", "maintain"],
  ])("answers %j on an issue with a reply (%s)", (body, permission) => {
    const p = onIssue(body);
    expect(decide(p, go(p), permission, "d")).toEqual(REVIEW_ON_ISSUE);
  });

  it.each(["read", "triage", undefined])("answers /review by a %s user with not-allowed, before the issue check", (permission) => {
    for (const p of [onIssue("/review"), onPr("/review")]) {
      expect(decide(p, go(p), permission, "d")).toEqual({ action: "not-allowed", login: "Codertocat" });
    }
  });

  it("only /review joins the review group", () => {
    for (const body of ["/plan", "/implement"]) {
      const p = onPr(body);
      const decision = decide(p, go(p), "write", "d");
      if (decision.action !== "enqueue") throw new Error(decision.action);
      expect(decision.job).not.toHaveProperty("group");
      expect(decision.job).not.toHaveProperty("supersede");
    }
  });
});
