import { describe, expect, it } from "vitest";
import { decide, MAX_REQUEST_CHARS, preflight, type CommentPayload } from "../../src/triggers/comment-command.js";
import { INSTALLATION_ID, issueCommentCreated } from "../fixtures/payloads.js";

const payload = (body: string, edit: (p: any) => void = () => {}) => {
  const p = issueCommentCreated(body);
  edit(p);
  return p as unknown as CommentPayload;
};

describe("preflight", () => {
  it.each([
    ["a bot's comment", payload("/plan", (p) => (p.comment.user.type = "Bot")), "comment by a bot"],
    ["the app's own comment", payload("/plan", (p) => ((p.comment.user.type = "Bot"), (p.comment.user.login = "crewbot[bot]"))), "comment by a bot"],
    ["a bot sender", payload("/plan", (p) => (p.sender.type = "Bot")), "comment by a bot"],
    ["no command", payload("thanks!"), "no command"],
    ["another bot's command", payload("/deploy"), "no command"],
    ["a locked issue", payload("/plan", (p) => (p.issue.locked = true)), "the conversation is locked"],
    ["no installation", payload("/plan", (p) => delete p.installation), "no installation in the payload"],
  ])("ignores %s", (_what, p, reason) => {
    expect(preflight(p)).toEqual({ go: false, reason });
  });
});

describe("decide", () => {
  const go = (p: CommentPayload) => {
    const pre = preflight(p);
    if (!pre.go) throw new Error(pre.reason);
    return pre;
  };

  it("enqueues /plan by a writer with everything the job needs", () => {
    const p = payload("/plan keep it small");
    expect(decide(p, go(p), "write", "delivery-1")).toEqual({
      action: "enqueue",
      job: {
        deliveryId: "delivery-1",
        kind: "plan",
        target: { installationId: INSTALLATION_ID, owner: "Codertocat", repo: "Hello-World", number: 1, isPullRequest: false },
        trigger: {
          sender: "Codertocat",
          senderId: (p as any).comment.user.id,
          request: "keep it small",
          commentId: (p as any).comment.id,
          commentKind: "issue_comment",
          commentCreatedAt: (p as any).comment.created_at,
        },
        repo: { cloneUrl: "https://github.com/Codertocat/Hello-World.git", defaultBranch: "master", private: false, size: 0 },
        subject: { title: "Spelling error in the README file", body: "It looks like you accidently spelled 'commit' with two 't's.", author: "Codertocat", createdAt: (p as any).issue.created_at },
      },
    });
  });

  it.each(["read", "triage", "none", undefined])("answers %s permission with not-allowed", (permission) => {
    const p = payload("/plan");
    expect(decide(p, go(p), permission, "d")).toEqual({ action: "not-allowed", login: "Codertocat" });
  });

  it.each(["admin", "maintain", "write"])("lets %s start a job", (permission) => {
    const p = payload("/plan");
    expect(decide(p, go(p), permission, "d").action).toBe("enqueue");
  });

  it("gives help to anyone, naming an unknown subcommand", () => {
    const p = payload("/crewbot frobnicate");
    expect(decide(p, go(p), undefined, "d")).toEqual({ action: "help", unknown: "frobnicate" });
  });

  it("cancels for a writer", () => {
    const p = payload("/crewbot cancel");
    expect(decide(p, go(p), "admin", "d")).toEqual({ action: "cancel", by: "Codertocat" });
  });

  it.each([
    ["/crewbot learn", "propose"],
    ["/crewbot learnings", "list"],
  ] as const)("queues %s by a writer as a learn job where it was written, and refuses a reader", (body, action) => {
    const p = payload(body);
    expect(decide(p, go(p), "write", "d")).toMatchObject({
      action: "enqueue",
      job: {
        kind: "learn",
        learn: { action, automatic: false, reason: `${body} by @Codertocat` },
        target: { owner: "Codertocat", repo: "Hello-World", number: 1, isPullRequest: false },
        trigger: { sender: "Codertocat", request: "", commentId: (p as any).comment.id },
        repo: { defaultBranch: "master" },
      },
    });
    expect(decide(p, go(p), "read", "d")).toEqual({ action: "not-allowed", login: "Codertocat" });
  });

  it("answers /review on an issue, and runs /implement on issues and pull requests", () => {
    const review = payload("/review");
    expect(decide(review, go(review), "write", "d")).toMatchObject({ action: "reply", reason: "review on an issue" });
    const onPr = payload("/implement rename it", (p) => (p.issue.pull_request = { url: "https://api.github.com/x" }));
    expect(decide(onPr, go(onPr), "write", "d")).toMatchObject({ action: "enqueue", job: { kind: "implement", target: { isPullRequest: true } } });
    const onIssue = payload("/implement");
    expect(decide(onIssue, go(onIssue), "write", "d")).toMatchObject({ action: "enqueue", job: { kind: "implement" } });
  });

  it("answers an over-long request instead of running it", () => {
    const p = payload(`/plan ${"x".repeat(MAX_REQUEST_CHARS + 1)}`);
    const decision = decide(p, go(p), "write", "d");
    expect(decision).toMatchObject({ action: "reply", reason: "request too long" });
  });
});

describe("decide: /crewbot pause and resume", () => {
  const go = (p: CommentPayload) => {
    const pre = preflight(p);
    if (!pre.go) throw new Error(pre.reason);
    return pre;
  };
  const onPr = (p: any) => (p.issue.pull_request = { url: "https://api.github.com/repos/Codertocat/Hello-World/pulls/1" });

  it.each([
    ["/crewbot pause", true],
    ["/crewbot resume", false],
  ] as const)("%s by a writer on a pull request is the pause decision", (body, pause) => {
    const p = payload(body, onPr);
    expect(decide(p, go(p), "write", "d")).toEqual({ action: "pause", by: "Codertocat", pause });
  });

  it("is refused to someone without write permission", () => {
    const p = payload("/crewbot pause", onPr);
    expect(decide(p, go(p), "read", "d")).toEqual({ action: "not-allowed", login: "Codertocat" });
  });

  it("on an issue is answered: it applies to pull requests", () => {
    const p = payload("/crewbot resume");
    expect(decide(p, go(p), "admin", "d")).toEqual({
      action: "reply",
      body: "`/crewbot resume` applies to pull requests: it pauses or resumes their automatic reviews, summaries and CI fixes.",
      reason: "resume on an issue",
    });
  });
});
