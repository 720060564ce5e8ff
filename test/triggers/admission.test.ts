/**
 * One person's commands per installation (CREWBOT_COMMANDS_BURST at once, then
 * CREWBOT_COMMANDS_PER_MINUTE): the bucket itself, and the app end to end — a maintainer triaging
 * issues is never refused, the command past the burst gets one clear answer.
 */
import nock from "nock";
import { describe, expect, it } from "vitest";
import { operatorLimits } from "../../src/installations/limits.js";
import { Admission, commandRateLimit, DEFAULT_RATE_LIMIT, renderSlowDown } from "../../src/triggers/admission.js";
import { API, mockInstallationToken, mockPermission, REPO_PATH, startStack, type Stack } from "../app/harness.js";
import { issueCommentCreated } from "../fixtures/payloads.js";
import { useNock } from "../helpers/github.js";

useNock();

const receive = (stack: Stack, payload: unknown, id: string) => stack.probot.receive({ id, name: "issue_comment", payload } as never);

/** `/plan` on issues `from`..`to`, one comment each. */
async function planOn(stack: Stack, from: number, to: number): Promise<void> {
  for (let n = from; n <= to; n++) {
    const payload = issueCommentCreated("/plan");
    payload.issue.number = n;
    payload.comment.id += n;
    await receive(stack, payload, `plan-${n}`);
  }
}

describe("the command bucket", () => {
  it("defaults to 20 at once, then 10 a minute", () => {
    expect(DEFAULT_RATE_LIMIT).toEqual({ burst: 20, perMinute: 10 });
    expect(commandRateLimit(operatorLimits({}))).toEqual({ burst: 20, perMinute: 10 });
    expect(commandRateLimit(operatorLimits({ CREWBOT_COMMANDS_BURST: "3", CREWBOT_COMMANDS_PER_MINUTE: "2" }))).toEqual({ burst: 3, perMinute: 2 });
  });

  it.each([
    // [burst, per minute, ms waited after the burst, commands that then go]
    [20, 10, 0, 0],
    [20, 10, 6_000, 1],
    [20, 10, 60_000, 10],
    [20, 10, 10 * 60_000, 20], // never more than the burst
    [3, 0.5, 120_000, 1],
  ])("burst %d, %d a minute: %d ms after the burst, %d more go", (burst, perMinute, waited, more) => {
    let now = 0;
    const admission = new Admission({ burst, perMinute }, () => now);
    const take = () => admission.take(1, "maintainer");
    expect(Array.from({ length: burst }, take).every((v) => v === "go")).toBe(true);
    expect(take()).toBe("slow-down");
    now += waited;
    const verdicts = Array.from({ length: burst + 1 }, take);
    expect(verdicts.filter((v) => v === "go")).toHaveLength(more);
  });

  it("says how long to wait from the per-minute rate", () => {
    let now = 0;
    const admission = new Admission({ burst: 1, perMinute: 10 }, () => now);
    admission.take(1, "a");
    expect(admission.waitSeconds(1, "a")).toBe(6);
    now += 3_000;
    expect(admission.waitSeconds(1, "a")).toBe(3);
  });

  it("words the answer with the operator's numbers", () => {
    expect(renderSlowDown("octo", 6, { burst: 20, perMinute: 10 })).toBe(
      "Slow down, @\u200Bocto: crewbot takes at most 20 commands at once from one person, then 10 a minute. " +
        "This command and any more in the next 6 s were not started; nothing else will be said about them.",
    );
    expect(renderSlowDown("octo", 120, { burst: 3, perMinute: 0.5 })).toContain("at most 3 commands at once from one person, then 0.5 a minute");
  });
});

describe("a maintainer triaging issues", () => {
  it("runs /plan on six issues, and on twenty, without being refused", async () => {
    const stack = await startStack([], { runner: false });
    mockInstallationToken();
    mockPermission("Codertocat", "write");
    await planOn(stack, 1, 6);
    await stack.crewbot.background.idle();
    expect((await stack.crewbot.queue.listRecent({ limit: 100 })).map((j) => j.target.number).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6]);
    await planOn(stack, 7, 20);
    await stack.crewbot.background.idle();
    expect(await stack.crewbot.queue.listRecent({ limit: 100 })).toHaveLength(20);
  });

  it("the 21st command at once is refused with one clear reply, and nothing is queued for it", async () => {
    const stack = await startStack([], { runner: false });
    mockInstallationToken();
    mockPermission("Codertocat", "write");
    const replies: string[] = [];
    nock(API)
      .post(`${REPO_PATH}/issues/21/comments`, (b) => (replies.push(b.body), true))
      .reply(201, { id: 2100 });
    await planOn(stack, 1, 22); // the 22nd is dropped without a word: one answer per dry spell
    await stack.crewbot.background.idle();
    const jobs = await stack.crewbot.queue.listRecent({ limit: 100 });
    expect(jobs.map((j) => j.target.number).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(replies).toEqual([
      "Slow down, @\u200BCodertocat: crewbot takes at most 20 commands at once from one person, then 10 a minute. " +
        "This command and any more in the next 6 s were not started; nothing else will be said about them.",
    ]);
  });

  it("follows CREWBOT_COMMANDS_BURST and CREWBOT_COMMANDS_PER_MINUTE", async () => {
    const stack = await startStack([], { runner: false, env: { CREWBOT_COMMANDS_BURST: "2", CREWBOT_COMMANDS_PER_MINUTE: "1" } });
    mockInstallationToken();
    mockPermission("Codertocat", "write");
    const replies: string[] = [];
    nock(API)
      .post(`${REPO_PATH}/issues/3/comments`, (b) => (replies.push(b.body), true))
      .reply(201, { id: 300 });
    await planOn(stack, 1, 3);
    await stack.crewbot.background.idle();
    expect(await stack.crewbot.queue.listRecent({ limit: 100 })).toHaveLength(2);
    expect(replies[0]).toMatch(/at most 2 commands at once from one person, then 1 a minute\. This command and any more in the next 60 s/);
  });
});
