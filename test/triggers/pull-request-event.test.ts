import { describe, expect, it } from "vitest";
import { AUTOMATIC_REVIEW_ACTIONS, type NewJob } from "../../src/queue/types.js";
import { AUTOMATIC_REVIEW_EVENTS, decidePullRequestEnd, decidePullRequestEvent, REVIEW_GROUP, reviewTurnedOff, type PullRequestPayload } from "../../src/triggers/pull-request-event.js";
import { onPullRequest } from "../../src/triggers/on-pull-request.js";
import { DEFAULT_CONFIG, type CrewbotConfig } from "../../src/config/schema.js";
import { crewbotApp } from "../../src/index.js";
import { validateNewJob } from "../../src/queue/new-job.js";
import type { TriggerDeps } from "../../src/triggers/deps.js";
import { INSTALLATION_ID, pullRequestEvent } from "../fixtures/payloads.js";

type Options = Parameters<typeof pullRequestEvent>[1];
const SHA = "0123456789abcdef0123456789abcdef01234567";
const NOW = Date.UTC(2024, 4, 6, 7, 8, 9, 10);

const payload = (action: Parameters<typeof pullRequestEvent>[0], o: Partial<Options> = {}, edit: (p: any) => void = () => {}) => {
  const p = pullRequestEvent(action, { headSha: SHA, ...o });
  edit(p);
  return p as unknown as PullRequestPayload;
};

/** When the fixture's pull request was opened (its `created_at`): the time to a first review counts from here. */
const OPENED = "2019-05-15T15:20:33Z";

/** The job for the fixture's defaults: PR #1 by Codertocat, head `feature` of the repository itself. */
const expected = (event: string): NewJob => ({
  deliveryId: "delivery-9",
  kind: "review",
  group: "review",
  supersede: true,
  target: { installationId: INSTALLATION_ID, owner: "Codertocat", repo: "Hello-World", number: 1, isPullRequest: true },
  trigger: { sender: "Codertocat", senderId: 21031067, request: "", commentCreatedAt: "2024-05-06T07:08:09.010Z" },
  repo: { cloneUrl: "https://github.com/Codertocat/Hello-World.git", defaultBranch: "main", private: false, size: 0 },
  subject: { title: "Make the greeting friendlier", body: "Changes the greeting.", author: "Codertocat", createdAt: OPENED },
  review: {
    automatic: true,
    event: event as never,
    headSha: SHA,
    headRef: "feature",
    headRepo: "Codertocat/Hello-World",
    baseRef: "main",
    baseSha: "f95f852bd8fca8fcc58a9a2d6c842781e32a215e",
    draft: false,
    labels: [],
    authorType: "User",
    authorAssociation: "OWNER",
    eventAt: NOW,
  },
});

describe("decidePullRequestEvent", () => {
  it("reviews exactly the four actions", () => {
    expect([...AUTOMATIC_REVIEW_ACTIONS]).toEqual(["opened", "reopened", "ready_for_review", "synchronize"]);
    expect(AUTOMATIC_REVIEW_EVENTS).toEqual(["pull_request.opened", "pull_request.reopened", "pull_request.ready_for_review", "pull_request.synchronize"]);
    expect(REVIEW_GROUP).toBe("review");
  });

  it.each(["opened", "reopened", "ready_for_review", "synchronize"] as const)("enqueues a review job for %s", (action) => {
    expect(decidePullRequestEvent(payload(action), "delivery-9", NOW)).toEqual({ action: "enqueue", job: expected(action) });
  });

  it("the app hears exactly those actions, and the queue takes each one's job", () => {
    const heard: string[] = [];
    crewbotApp({} as TriggerDeps)({ on: (events: string | string[]) => heard.push(...[events].flat()) } as never, {} as never);
    // The automatic review's actions, and `closed` (the ends of crewbot's findings, for the figures).
    expect(heard.filter((e) => e.startsWith("pull_request."))).toEqual([...AUTOMATIC_REVIEW_EVENTS, "pull_request.closed"]);
    for (const action of AUTOMATIC_REVIEW_ACTIONS) {
      const decision = decidePullRequestEvent(payload(action), "d", NOW);
      if (decision.action !== "enqueue") throw new Error(`${action} not enqueued`);
      expect(() => validateNewJob(decision.job)).not.toThrow();
    }
  });

  it("uses the current time by default", () => {
    const before = Date.now();
    const decision = decidePullRequestEvent(payload("opened"), "d");
    const after = Date.now();
    if (decision.action !== "enqueue") throw new Error("not enqueued");
    expect(decision.job.review!.eventAt).toBeGreaterThanOrEqual(before);
    expect(decision.job.review!.eventAt).toBeLessThanOrEqual(after);
    expect(decision.job.trigger.commentCreatedAt).toBe(new Date(decision.job.review!.eventAt).toISOString());
  });

  it.each<[string, PullRequestPayload, string]>([
    ["labeled", payload("labeled"), "action labeled"],
    ["closed", payload("closed"), "action closed"],
    ["edited", payload("opened", {}, (p) => (p.action = "edited")), "action edited"],
    ["no installation", payload("opened", {}, (p) => delete p.installation), "no installation in the payload"],
    ["a closed PR on synchronize", payload("synchronize", {}, (p) => (p.pull_request.state = "closed")), "the pull request is closed"],
    ["a merged-state PR on reopened", payload("reopened", {}, (p) => (p.pull_request.state = "merged")), "the pull request is merged"],
    ["an unknown action before a missing installation", payload("assigned" as never, {}, (p) => delete p.installation), "action assigned"],
    ["no installation before a closed PR", payload("opened", {}, (p) => ((p.pull_request.state = "closed"), delete p.installation)), "no installation in the payload"],
  ])("ignores %s", (_what, p, reason) => {
    expect(decidePullRequestEvent(p, "d", NOW)).toEqual({ action: "ignore", reason });
  });

  it.each<[string, Partial<Options>, (p: any) => void, Partial<NewJob["review"] & object>, Partial<NewJob>]>([
    ["a fork head", { headRepo: "someone/Hello-World" }, () => {}, { headRepo: "someone/Hello-World" }, {}],
    ["a deleted fork (head.repo null)", { headRepo: null }, () => {}, { headRepo: "" }, {}],
    ["labels in order", { labels: ["bug", "Skip-Review"] }, () => {}, { labels: ["bug", "Skip-Review"] }, {}],
    ["no labels key", {}, (p) => delete p.pull_request.labels, { labels: [] }, {}],
    ["a draft", { draft: true }, () => {}, { draft: true }, {}],
    ["no draft key", {}, (p) => delete p.pull_request.draft, { draft: false }, {}],
    ["a bot author", { author: { login: "dependabot[bot]", type: "Bot" } }, () => {}, { authorType: "Bot" }, { subject: { title: "Make the greeting friendlier", body: "Changes the greeting.", author: "dependabot[bot]", createdAt: OPENED }, trigger: { sender: "dependabot[bot]", senderId: 21031067, request: "", commentCreatedAt: "2024-05-06T07:08:09.010Z" } }],
    ["a deleted user (ghost)", {}, (p) => (p.pull_request.user = null), { authorType: "User" }, { subject: { title: "Make the greeting friendlier", body: "Changes the greeting.", author: "ghost", createdAt: OPENED } }],
    ["a null body", {}, (p) => (p.pull_request.body = null), {}, { subject: { title: "Make the greeting friendlier", body: "", author: "Codertocat", createdAt: OPENED } }],
    ["another head ref, base and number", { headRef: "topic/x", base: "develop", number: 42 }, () => {}, { headRef: "topic/x", baseRef: "develop" }, { target: { installationId: INSTALLATION_ID, owner: "Codertocat", repo: "Hello-World", number: 42, isPullRequest: true } }],
    ["a first-time contributor", { association: "FIRST_TIME_CONTRIBUTOR" }, () => {}, { authorAssociation: "FIRST_TIME_CONTRIBUTOR" }, {}],
    ["no author_association (counts as none)", {}, (p) => delete p.pull_request.author_association, { authorAssociation: "NONE" }, {}],
    ["a sender without an id", {}, (p) => delete p.sender.id, {}, { trigger: { sender: "Codertocat", senderId: undefined, request: "", commentCreatedAt: "2024-05-06T07:08:09.010Z" } }],
  ])("%s", (_what, o, edit, review, job) => {
    const base = expected("opened");
    expect(decidePullRequestEvent(payload("opened", o, edit), "delivery-9", NOW)).toEqual({
      action: "enqueue",
      job: { ...base, ...job, review: { ...base.review!, ...review } },
    });
  });
});

describe("onPullRequest: the repository's config decides before anything is queued", () => {
  const configWith = (review: Partial<CrewbotConfig["review"]>): CrewbotConfig => ({ ...DEFAULT_CONFIG, review: { ...DEFAULT_CONFIG.review, ...review } });
  const handle = async (p: PullRequestPayload, config: CrewbotConfig, uncovered?: string) => {
    const enqueued: NewJob[] = [];
    const reads: unknown[] = [];
    const quiet = () => {};
    const deps = {
      log: { debug: quiet, info: quiet, warn: quiet, error: quiet },
      coverage: async () => uncovered,
      repoConfig: async (_octokit: unknown, owner: string, repo: string, options?: unknown) => (reads.push([owner, repo, options]), config),
      enqueue: async (job: NewJob) => void enqueued.push(job),
    } as unknown as TriggerDeps;
    await onPullRequest({ id: "delivery-9", payload: p, octokit: {} } as never, deps);
    return { enqueued, reads };
  };

  it("review.auto: false queues nothing, from the config read afresh", async () => {
    const { enqueued, reads } = await handle(payload("synchronize"), configWith({ auto: false }));
    expect(enqueued).toEqual([]);
    expect(reads).toEqual([["Codertocat", "Hello-World", { fresh: true }]]);
    expect(reviewTurnedOff(configWith({ auto: false }))).toBe("automatic reviews are off (review.auto: false)");
  });

  it.each<[string, PullRequestPayload, Partial<CrewbotConfig["review"]>]>([
    ["the defaults", payload("opened"), {}],
    // The job skips these with a check run that says why: they are queued as before.
    ["a draft with review.drafts: false", payload("opened", { draft: true }), { drafts: false }],
    ["an ignored label", payload("opened", { labels: ["no-review"] }), { ignoreLabels: ["no-review"] }],
    ["an ignored author", payload("synchronize"), { ignoreAuthors: ["Codertocat"] }],
  ])("queues the review with %s", async (_what, p, review) => {
    const { enqueued } = await handle(p, configWith(review));
    expect(enqueued.map((j) => j.review?.event)).toEqual([p.action]);
    expect(reviewTurnedOff(configWith(review))).toBeUndefined();
  });

  it("reads no config for an event it ignores, nor on a repository no longer covered", async () => {
    expect(await handle(payload("closed"), DEFAULT_CONFIG)).toEqual({ enqueued: [], reads: [] });
    expect(await handle(payload("opened"), DEFAULT_CONFIG, "the app was uninstalled")).toEqual({ enqueued: [], reads: [] });
  });
});

describe("decidePullRequestEnd", () => {
  const closed = (edit: (p: any) => void = () => {}) => {
    const p = pullRequestEvent("closed", { headSha: SHA }) as any;
    edit(p);
    return p as PullRequestPayload;
  };

  it("a merged pull request: its number, merged, the head it closed on, and GitHub's closing time", () => {
    const p = closed((p) => ((p.pull_request.merged = true), (p.pull_request.closed_at = "2026-11-04T10:00:00Z")));
    expect(decidePullRequestEnd(p, "d-1", NOW)).toEqual({
      action: "record",
      end: { installationId: INSTALLATION_ID, owner: "Codertocat", repo: "Hello-World", number: 1, merged: true, headSha: SHA, closedAt: Date.parse("2026-11-04T10:00:00Z"), deliveryId: "d-1" },
    });
  });

  it("closed without merging, and without a closing time: now", () => {
    const p = closed((p) => ((p.pull_request.merged = false), (p.pull_request.closed_at = null)));
    expect(decidePullRequestEnd(p, "d-2", NOW)).toMatchObject({ action: "record", end: { merged: false, closedAt: NOW } });
  });

  it("ignores other actions and payloads without an installation", () => {
    expect(decidePullRequestEnd(payload("opened"), "d-3", NOW)).toEqual({ action: "ignore", reason: "action opened" });
    expect(decidePullRequestEnd(closed((p) => delete p.installation), "d-4", NOW)).toEqual({ action: "ignore", reason: "no installation in the payload" });
  });
});
