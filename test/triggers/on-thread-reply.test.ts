import { describe, expect, it } from "vitest";
import { threadAnswerJob, threadReplyPreflight, type ThreadReplyPayload } from "../../src/triggers/on-thread-reply.js";

const payload = (o: { body?: string; login?: string; type?: string; sender?: string; inReplyTo?: number | null; locked?: boolean } = {}): ThreadReplyPayload =>
  ({
    comment: {
      id: 12,
      body: o.body ?? "Why is this a problem?",
      created_at: "2024-01-01T00:00:00Z",
      user: { login: o.login ?? "alice", type: o.type ?? "User", id: 5 },
      path: "a.ts",
      line: 3,
      side: "RIGHT",
      diff_hunk: "@@ -1 +1 @@",
      ...(o.inReplyTo === null ? {} : { in_reply_to_id: o.inReplyTo ?? 10 }),
    },
    pull_request: {
      number: 4,
      title: "T",
      body: "",
      locked: o.locked ?? false,
      user: { login: "bob" },
      head: { sha: "h".repeat(40), ref: "feature", repo: { full_name: "o/r" } },
      base: { sha: "b".repeat(40), ref: "main" },
    },
    repository: { name: "r", owner: { login: "o" }, clone_url: "https://x/o/r.git", default_branch: "main", private: false },
    installation: { id: 1 },
    sender: { login: o.sender ?? o.login ?? "alice", type: o.type ?? "User" },
  }) as ThreadReplyPayload;

describe("threadReplyPreflight", () => {
  it.each<[string, ThreadReplyPayload, string | null]>([
    ["a person's reply", payload(), null],
    ["crewbot's own reply", payload({ login: "crewbot[bot]", type: "Bot" }), "reply by a bot"],
    ["another bot's", payload({ login: "dependabot[bot]" }), "reply by a bot"],
    ["sent by a bot", payload({ sender: "ci[bot]" }), "reply by a bot"],
    ["a top-level comment", payload({ inReplyTo: null }), "not a reply in a thread"],
    ["a command", payload({ body: "/implement rename it" }), "a command (handled as one)"],
    ["an unknown slash word is not a command", payload({ body: "/shrug I disagree" }), null],
    ["a locked conversation", payload({ locked: true }), "the conversation is locked"],
    ["an empty reply", payload({ body: "   " }), "an empty reply"],
    ["a reply too long", payload({ body: "x".repeat(20_001) }), "a reply too long to answer"],
  ])("%s", (_name, p, reason) => {
    const pre = threadReplyPreflight(p);
    if (reason === null) expect(pre).toEqual({ go: true, topId: 10, login: p.comment.user!.login });
    else expect(pre).toEqual({ go: false, reason });
  });
});

describe("threadAnswerJob", () => {
  it("is a review job of event thread-reply on the PR's head, the reply as its request and the thread's top as its place", () => {
    const job = threadAnswerJob(payload(), "d-1", 1000);
    expect(job).toMatchObject({
      deliveryId: "d-1",
      kind: "review",
      target: { installationId: 1, owner: "o", repo: "r", number: 4, isPullRequest: true },
      review: { automatic: false, event: "thread-reply", headSha: "h".repeat(40), headRef: "feature", headRepo: "o/r", baseRef: "main", eventAt: 1000 },
      trigger: { sender: "alice", senderId: 5, request: "Why is this a problem?", commentId: 12, commentKind: "review_comment", reviewComment: { path: "a.ts", line: 3, side: "RIGHT", inReplyToId: 10 } },
    });
    expect(job).not.toHaveProperty("group");
  });
});
