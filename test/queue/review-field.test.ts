import { afterEach, describe, expect, it } from "vitest";
import type { NewJob, ReviewRequest } from "../../src/queue/types.js";
import { Queues, newJob, tempDataDir } from "./helpers.js";

const queues = new Queues();
afterEach(() => queues.closeAll());

const review: ReviewRequest = {
  automatic: true,
  event: "synchronize",
  headSha: "0123456789abcdef0123456789abcdef01234567",
  headRef: "feature/x",
  headRepo: "fork-owner/Hello",
  baseRef: "main",
  baseSha: "fedcba9876543210fedcba9876543210fedcba98",
  draft: false,
  labels: ["bug", "needs review"],
  authorType: "User",
  authorAssociation: "FIRST_TIME_CONTRIBUTOR",
  eventAt: 1_700_000_000_000,
};

const reviewJob = (r: unknown): NewJob => ({ ...newJob(), kind: "review", review: r as ReviewRequest });

describe("SqliteQueue: the review field", () => {
  it("round-trips on every record, across a reopen", async () => {
    const dir = await tempDataDir();
    const q = queues.open(dir);
    const { job } = await q.enqueue(reviewJob(review));
    expect(job.review).toEqual(review);
    await q.close();
    const again = queues.open(dir);
    expect((await again.get(job.id))?.review).toEqual(review);
    expect((await again.listRecent())[0]?.review).toEqual(review);
    expect((await again.enqueue(newJob())).job.review).toBeUndefined();
  });

  it("accepts a review without authorAssociation (a /review, or a job queued before it was recorded)", async () => {
    const q = queues.open(await tempDataDir());
    const { authorAssociation: _, ...older } = review;
    const { job } = await q.enqueue(reviewJob(older));
    expect((await q.get(job.id))?.review).toEqual(older);
  });

  it.each<[string, Record<string, unknown>, RegExp]>([
    ["not an object", { review: "yes" }, /object/],
    ["automatic not a boolean", { automatic: "true" }, /automatic/],
    ["an unknown event", { event: "closed" }, /event/],
    ["an empty headSha", { headSha: "" }, /headSha/],
    ["a missing headRef", { headRef: undefined }, /headRef/],
    ["a headRepo that is not owner/repo", { headRepo: "Hello" }, /headRepo/],
    ["a missing baseSha", { baseSha: undefined }, /baseSha/],
    ["draft not a boolean", { draft: 0 }, /draft/],
    ["labels not strings", { labels: ["ok", 3] }, /labels/],
    ["a missing authorType", { authorType: undefined }, /authorType/],
    ["eventAt not a time", { eventAt: "yesterday" }, /eventAt/],
    ["an empty authorAssociation", { authorAssociation: "" }, /authorAssociation/],
    ["authorAssociation not a string", { authorAssociation: 3 }, /authorAssociation/],
  ])("rejects a review with %s", async (_what, change, message) => {
    const q = queues.open(await tempDataDir());
    const r = "review" in change ? change.review : { ...review, ...change };
    await expect(q.enqueue(reviewJob(r))).rejects.toThrow(message);
    expect(await q.listRecent()).toEqual([]);
  });
});
