/**
 * The writer's `editPullBody`: the description is read again right before the PATCH, and an edit
 * made between crewbot's read and its write is kept (the new block spliced into the newer text).
 */
import nock from "nock";
import { describe, expect, it } from "vitest";
import { GitHubWriter } from "../../src/report/github-writer.js";
import { spliceSummary } from "../../src/summary/body-block.js";
import { renderSummaryBlock } from "../../src/summary/render-summary.js";
import { API, fakeClock, newOctokit, TOKEN, useNock } from "../helpers/github.js";

useNock();

const PULL = "/repos/o/r/pulls/7";
const pr = { owner: "o", repo: "r", pull_number: 7 };
const block = renderSummaryBlock(
  { what: "Adds a cache.", walkthrough: [{ files: "src/cache.ts", change: "new" }], effort: 2, effortReason: "small", risks: [] },
  { headSha: "a".repeat(40) },
);
const splice = (body: string) => {
  const s = spliceSummary(body, block);
  return s.kind === "write" ? s.body : undefined;
};
const writer = () => new GitHubWriter({ octokit: newOctokit(), clock: fakeClock(), secrets: [TOKEN] });

describe("editPullBody", () => {
  it("writes the block once, after reading the body twice, when nobody else edited it", async () => {
    const sent: string[] = [];
    nock(API).get(PULL).twice().reply(200, { body: "Fixes #3." });
    nock(API).patch(PULL, (b: { body: string }) => (sent.push(b.body), true)).reply(200, {});
    const w = writer();
    const out = await w.editPullBody(pr, splice);
    expect(out).toMatchObject({ written: true, rereads: 0 });
    expect(sent).toEqual([`Fixes #3.\n\n${block}`]);
    expect(w.writes).toBe(1);
  });

  it("keeps an edit made between the read and the write: the block goes into the newer body", async () => {
    const sent: string[] = [];
    nock(API).get(PULL).reply(200, { body: "Fixes #3." });
    // The author's edit lands while crewbot's write waits for its turn.
    nock(API).get(PULL).twice().reply(200, { body: "Fixes #3.\n\nAlso closes #4." });
    nock(API).patch(PULL, (b: { body: string }) => (sent.push(b.body), true)).reply(200, {});
    const w = writer();
    const out = await w.editPullBody(pr, splice);
    expect(out).toMatchObject({ written: true, rereads: 1 });
    expect(sent).toEqual([`Fixes #3.\n\nAlso closes #4.\n\n${block}`]);
    expect(w.writes).toBe(1);
  });

  it("gives up rather than overwrite a body that changes on every read", async () => {
    let n = 0;
    nock(API).get(PULL).times(4).reply(200, () => ({ body: `edit ${(n += 1)}` }));
    await expect(writer().editPullBody(pr, splice, 3)).rejects.toThrow(/changed on each of 3 reads; not written/);
  });

  it("writes nothing when the block is already there as it would be", async () => {
    nock(API).get(PULL).reply(200, { body: `Intro\n\n${block}` });
    const w = writer();
    expect(await w.editPullBody(pr, splice)).toMatchObject({ written: false });
    expect(w.writes).toBe(0);
  });
});
