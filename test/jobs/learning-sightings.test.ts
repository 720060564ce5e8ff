/**
 * Recording what writers teach: only writers' sightings are kept (a reader's and a bot's never),
 * a thread counts once, the sighting that makes a candidate due asks for the learnings pull
 * request once, and `learnings.enabled: false` keeps nothing at all.
 */
import { afterEach, describe, expect, it } from "vitest";
import { recordSightings, threadReplySightings, type ThreadReply } from "../../src/jobs/learning-sightings.js";
import type { CandidateSighting, LearnRequest } from "../../src/learnings/types.js";
import type { JobRecord } from "../../src/queue/types.js";
import type { StoredFinding } from "../../src/review/review-store.js";
import { SqliteLearningsStore } from "../../src/store/sqlite/learnings.js";
import { tempDataDir } from "../queue/helpers.js";
import { stubServices } from "../helpers/stub-services.js";

const stores: SqliteLearningsStore[] = [];
afterEach(async () => void (await Promise.all(stores.splice(0).map((s) => s.close()))));

const PERMISSIONS: Record<string, string> = { octocat: "write", admin: "admin", reader: "read" };
const job = { id: "job-1", target: { installationId: 7, owner: "Octo", repo: "Hello", number: 12, isPullRequest: true } } as unknown as JobRecord;
const thread = (n: number) => `https://github.com/Octo/Hello/pull/12#discussion_r${n}`;
const sighting = (o: Partial<CandidateSighting> = {}): CandidateSighting => ({
  ...{ source: "dismissed", url: thread(1), number: 12, by: "octocat", at: 1_000, kind: "raw sql string", text: "finding: raw SQL", path: "src/db/users.ts" },
  ...o,
});

async function world(o: { failPropose?: boolean } = {}) {
  const learnings = new SqliteLearningsStore({ dataDir: await tempDataDir() });
  stores.push(learnings);
  const proposed: LearnRequest[] = [];
  const asked: string[] = [];
  const warnings: string[] = [];
  const services = stubServices({
    records: {
      learnings,
      proposeLearnings: async (r: LearnRequest) => {
        proposed.push(r);
        if (o.failPropose) throw new Error("the queue is down");
      },
    },
    github: { permissions: { get: async (_o: unknown, _owner: string, _repo: string, login: string) => (asked.push(login), PERMISSIONS[login] ?? "none") } as never },
    observe: { log: { info: () => undefined, warn: (line: string) => void warnings.push(line), debug: () => undefined, error: () => undefined } as never },
  });
  const at = (enabled = true, proposeAfter = 2) => ({ job, octokit: {} as never, config: { learnings: { enabled, proposeAfter, staleDays: 90 } } });
  return { learnings, services, proposed, asked, warnings, at };
}

describe("recordSightings", () => {
  it("keeps a writer's sighting, never a reader's or a bot's", async () => {
    const w = await world();
    const added = await w.services.records.learnings.candidates("octo/hello");
    expect(added).toEqual([]);
    expect(await recordSightings(w.services, w.at(), [sighting({ by: "reader" }), sighting({ by: "dependabot[bot]", url: thread(2) }), sighting({ by: "admin", url: thread(3) })])).toBe(1);
    const [c] = await w.learnings.candidates("octo/hello");
    expect(c!.sightings.map((s) => s.by)).toEqual(["admin"]);
    expect(w.asked).toEqual(["reader", "admin"]); // a bot is not even asked about
  });

  it("asks for the learnings pull request once, on the sighting that makes the candidate due", async () => {
    const w = await world();
    await recordSightings(w.services, w.at(), [sighting()]);
    expect(w.proposed).toEqual([]);
    // The same thread again: one sighting, nothing due.
    await recordSightings(w.services, w.at(), [sighting({ at: 2_000 })]);
    expect(w.proposed).toEqual([]);
    await recordSightings(w.services, w.at(), [sighting({ url: thread(2), at: 3_000 }), sighting({ url: thread(3), kind: "other" })]);
    expect(w.proposed).toEqual([{ installationId: 7, owner: "Octo", repo: "Hello", number: 12, reason: "a candidate repeated 2 times (dismissed)" }]);
    // A thread counted before makes nothing due again.
    await recordSightings(w.services, w.at(), [sighting({ url: thread(2), at: 4_000 })]);
    expect(w.proposed).toHaveLength(1);
  });

  it("never fails the job: a refused proposal and a bad sighting are logged with the job id", async () => {
    const w = await world({ failPropose: true });
    expect(await recordSightings(w.services, w.at(true, 1), [sighting({ kind: " " }), sighting()])).toBe(1);
    expect(w.proposed).toHaveLength(1);
    expect(w.warnings).toEqual([
      "job job-1: a dismissed sighting was not recorded: a sighting needs a kind",
      "job job-1: the learnings pull request could not be asked for: the queue is down",
    ]);
  });

  it("keeps nothing and asks nothing with learnings.enabled: false", async () => {
    const w = await world();
    expect(await recordSightings(w.services, w.at(false, 1), [sighting()])).toBe(0);
    expect(await w.learnings.candidates("octo/hello")).toEqual([]);
    expect([w.asked, w.proposed]).toEqual([[], []]);
  });
});

describe("threadReplySightings", () => {
  const finding: StoredFinding = { fingerprint: "0123456789abcdef", severity: "warning", path: "src/db/users.ts", line: 3, title: "Raw SQL string built from input.", commit: "c1", kind: "raw sql string" };
  const reply = (body: string, o: Partial<ThreadReply> = {}): ThreadReply => ({
    ...{ body, by: "octocat", at: 5, number: 12, threadUrl: thread(1), path: "src/db/users.ts", topBody: "**Warning** — Raw SQL string built from input.\n\n<!-- crewbot:finding:0123456789abcdef -->" },
    ...{ finding },
    ...o,
  });
  const base = { url: thread(1), number: 12, by: "octocat", at: 5, path: "src/db/users.ts" };

  it.each([
    ["a dismissal: the kept finding's kind", reply("False positive: this table is ours."), [{ ...base, source: "dismissed", kind: "raw sql string", text: "finding: Raw SQL string built from input.\nreply: False positive: this table is ours." }]],
    ["a dismissal of a finding the store forgot: its title", reply("won't fix", { finding: undefined }), [{ ...base, source: "dismissed", kind: "raw sql string built from input", text: "finding: Raw SQL string built from input.\nreply: won't fix" }]],
    ["a rule", reply("Always use parameterised queries.\n\nThanks!"), [{ ...base, source: "rule", kind: "always use parameterised queries", text: "Always use parameterised queries.\n\nThanks!" }]],
    ["a question", reply("Is this really a problem?"), []],
  ])("%s", (_name, r, expected) => {
    expect(threadReplySightings(r, true)).toEqual(expected);
  });

  it("a dismissal of a finding that carried a suggestion also refuses the suggestion; a thread without a finding dismisses nothing", () => {
    const withFix = reply("not a bug", { finding: { ...finding, suggestion: { lines: 1, hash: "abc" } } });
    expect(threadReplySightings(withFix, true).map((s) => s.source)).toEqual(["dismissed", "suggestion-refused"]);
    expect(threadReplySightings(reply("not a bug"), false)).toEqual([]);
  });
});
