import { describe, expect, it } from "vitest";
import type { ReviewCommentPlace } from "../../src/queue/types.js";
import { decide, MAX_STORED_HUNK_CHARS, preflight, reviewCommentPlace, type CommentPayload, type ReviewCommentFields } from "../../src/triggers/comment-command.js";
import { reviewCommentCreated } from "../fixtures/payloads.js";

const HUNK = "@@ -1,2 +1,2 @@\n-hello\n+hi";

describe("reviewCommentPlace", () => {
  it.each<[string, ReviewCommentFields, ReviewCommentPlace]>([
    ["a line on the new side", { path: "a.ts", line: 2, side: "RIGHT", diff_hunk: HUNK }, { path: "a.ts", line: 2, side: "RIGHT", diffHunk: HUNK }],
    ["a deleted line", { path: "a.ts", line: 1, side: "LEFT", diff_hunk: HUNK }, { path: "a.ts", line: 1, side: "LEFT", diffHunk: HUNK }],
    ["a multi-line comment", { path: "a.ts", start_line: 1, line: 2, side: "RIGHT", diff_hunk: HUNK }, { path: "a.ts", startLine: 1, line: 2, side: "RIGHT", diffHunk: HUNK }],
    ["start_line equal to line is one line", { path: "a.ts", start_line: 2, line: 2, diff_hunk: HUNK }, { path: "a.ts", line: 2, diffHunk: HUNK }],
    ["an outdated comment keeps its original line", { path: "a.ts", line: null, original_line: 7, diff_hunk: HUNK }, { path: "a.ts", line: 7, diffHunk: HUNK }],
    ["no line at all (a file comment)", { path: "a.ts", line: null, original_line: null, diff_hunk: HUNK }, { path: "a.ts", diffHunk: HUNK }],
    ["a reply names its thread's top", { path: "a.ts", line: 2, in_reply_to_id: 11, diff_hunk: HUNK }, { path: "a.ts", line: 2, inReplyToId: 11, diffHunk: HUNK }],
    ["an unknown side is left out", { path: "a.ts", line: 2, side: "MIDDLE", diff_hunk: HUNK }, { path: "a.ts", line: 2, diffHunk: HUNK }],
    ["nothing given", {}, { path: "", diffHunk: "" }],
  ])("%s", (_what, fields, place) => {
    expect(reviewCommentPlace(fields)).toEqual(place);
  });

  it("keeps the end of a huge hunk, where the commented line is", () => {
    const hunk = `@@ -1,99999 +1,99999 @@\n${"+x\n".repeat(20_000)}+the commented line`;
    const place = reviewCommentPlace({ path: "a.ts", line: 3, diff_hunk: hunk });
    expect(place.diffHunk).toHaveLength(MAX_STORED_HUNK_CHARS);
    expect(place.diffHunk.endsWith("+the commented line")).toBe(true);
  });

  it("goes into the trigger of a job from a review comment, and only there", () => {
    const p = reviewCommentCreated("/implement rename it", { path: "greet.txt", line: 4, side: "RIGHT", diffHunk: HUNK, inReplyTo: 99 }) as unknown as CommentPayload;
    const pre = preflight(p);
    if (!pre.go) throw new Error(pre.reason);
    const asReview = decide(p, pre, "write", "d", "review_comment");
    const asIssue = decide(p, pre, "write", "d", "issue_comment");
    if (asReview.action !== "enqueue" || asIssue.action !== "enqueue") throw new Error("not enqueued");
    expect(asReview.job.trigger.reviewComment).toEqual({ path: "greet.txt", line: 4, side: "RIGHT", diffHunk: HUNK, inReplyToId: 99 });
    expect(asIssue.job.trigger.reviewComment).toBeUndefined();
  });
});
