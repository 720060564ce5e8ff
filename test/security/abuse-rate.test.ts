/**
 * Adversarial suite, resource abuse: one person firing commands. A token bucket per person and
 * installation (here set to 5 at once, then 5 a minute, with CREWBOT_COMMANDS_*) lets the first commands through,
 * answers "slow down" once, and drops the rest without a word; a queued command waits behind
 * the running one on its issue (never two jobs at once there). Someone whose comments start nothing
 * is answered once per issue an hour, from the replies' own small budget. Nock fails on any extra write.
 */
import { Writable } from "node:stream";
import nock from "nock";
import pino from "pino";
import { describe, expect, it, vi } from "vitest";
import { Admission } from "../../src/triggers/admission.js";
import { issueCommentCreated } from "../fixtures/payloads.js";
import { useNock } from "../helpers/github.js";
import { API, mockInstallationToken, mockPermission, REPO_PATH, startStack, type Stack } from "../app/harness.js";

useNock();

/** A small bucket keeps these tests short (each queued command writes twice, a second apart). */
const FIVE = { env: { CREWBOT_COMMANDS_BURST: "5", CREWBOT_COMMANDS_PER_MINUTE: "5" } };

const receive = (stack: Stack, payload: unknown, id: string) => stack.probot.receive({ id, name: "issue_comment", payload } as never);

/** Comments posted on issue `n`, recorded. */
function posts(n: number, times: number, id: number): string[] {
  const bodies: string[] = [];
  nock(API)
    .post(`${REPO_PATH}/issues/${n}/comments`, (b) => (bodies.push(b.body), true))
    .times(times)
    .reply(201, { id });
  return bodies;
}

describe("100 /plan comments in a minute from one person", () => {
  it("on one issue: five queued one behind the other, one 'slow down', the rest dropped; cancel still works", async () => {
    const stack = await startStack([], { runner: false, ...FIVE });
    mockInstallationToken();
    mockPermission("Codertocat", "write");
    const base = issueCommentCreated("/plan");
    // The four commands that wait behind the first each get 👀 and a "queued" comment.
    for (let i = 1; i < 5; i++) nock(API).post(`${REPO_PATH}/issues/comments/${base.comment.id + i}/reactions`, { content: "eyes" }).reply(201, {});
    const bodies = posts(1, 5, 555); // written in the background, a second apart, in any order
    for (let i = 0; i < 100; i++) {
      const payload = issueCommentCreated(`/plan attempt ${i}`);
      payload.comment.id = base.comment.id + i;
      await receive(stack, payload, `spam-${i}`);
    }
    await stack.crewbot.background.idle();

    const jobs = await stack.crewbot.queue.listRecent({ limit: 1000 });
    expect(jobs).toHaveLength(5);
    expect(jobs.every((j) => j.state === "queued" && j.target.number === 1)).toBe(true);
    expect(bodies.filter((b) => b.startsWith("⏳ Queued behind job "))).toHaveLength(4);
    const slowDown = bodies.filter((b) => b.startsWith("Slow down"));
    expect(slowDown).toHaveLength(1);
    expect(slowDown[0]).toMatch(/^Slow down, @\u200BCodertocat: crewbot takes at most 5 commands at once from one person, then 5 a minute\./);

    // Stopping work is never rate-limited: the queued ones end, their comments say so.
    nock(API).patch(`${REPO_PATH}/issues/comments/555`).times(4).reply(200, {});
    await receive(stack, issueCommentCreated("/crewbot cancel"), "cancel");
    await stack.crewbot.background.idle();
    expect((await stack.crewbot.queue.listRecent({ limit: 1000 })).every((j) => j.state === "cancelled")).toBe(true);
  });

  it("on 100 issues: five jobs, one 'slow down' on the sixth issue, nothing on the rest", async () => {
    const stack = await startStack([], { runner: false, ...FIVE });
    mockInstallationToken();
    mockPermission("Codertocat", "write");
    const slowDown = posts(6, 1, 600);
    for (let n = 1; n <= 100; n++) {
      const payload = issueCommentCreated("/plan");
      payload.issue.number = n;
      payload.comment.id += n;
      await receive(stack, payload, `issues-${n}`);
    }
    await stack.crewbot.background.idle();
    const jobs = await stack.crewbot.queue.listRecent({ limit: 1000 });
    expect(jobs.map((j) => j.target.number).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5]);
    expect(slowDown).toHaveLength(1);
  });

  it("someone without write access: one 'not allowed' answer (their 'slow down' is only logged), nothing queued", async () => {
    const stack = await startStack([], { runner: false, ...FIVE });
    mockInstallationToken();
    mockPermission("mallory", "read");
    const bodies = posts(1, 1, 700);
    for (let i = 0; i < 100; i++) await receive(stack, issueCommentCreated("/implement", { login: "mallory" }), `m-${i}`);
    await stack.crewbot.background.idle();
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).toMatch(/^Sorry @\u200Bmallory, only people with write/);
    expect(await stack.crewbot.queue.listRecent()).toEqual([]);
  });

  it("another person is not slowed down by the first one", async () => {
    const stack = await startStack([], { runner: false, ...FIVE });
    mockInstallationToken();
    mockPermission("Codertocat", "write");
    mockPermission("hubot", "write");
    posts(6, 1, 800);
    for (let n = 1; n <= 6; n++) {
      const payload = issueCommentCreated("/plan");
      payload.issue.number = n;
      await receive(stack, payload, `a-${n}`);
    }
    const other = issueCommentCreated("/plan", { login: "hubot" });
    other.issue.number = 7;
    await receive(stack, other, "b-1");
    await stack.crewbot.background.idle();
    expect((await stack.crewbot.queue.listRecent()).map((j) => j.trigger.sender).filter((s) => s === "hubot")).toHaveLength(1);
  });
});

describe("strangers are answered once per issue an hour", () => {
  /** What mallory, with read access, throws at one issue: each command would get its own answer. */
  const SIX = ["/implement now", "/plan", "/crewbot help", "/crewbot frobnicate", "/review", "/crewbot cancel"];

  function logSink() {
    const lines: Array<Record<string, unknown>> = [];
    const sink = new Writable({ write: (chunk, _e, done) => (lines.push(JSON.parse(String(chunk))), done()) });
    return { lines, log: pino({ level: "info" }, sink) };
  }

  it("six commands from a read-only user on one issue get one reply; another issue its own; an hour later one more", async () => {
    const { lines, log } = logSink();
    const stack = await startStack([], { runner: false, log });
    mockInstallationToken();
    mockPermission("mallory", "read");
    // Asked again only if the permission cache's 30 s ran out while the test ran.
    nock(API).get(`${REPO_PATH}/collaborators/mallory/permission`).optionally().times(3).reply(200, { permission: "read", role_name: "read", user: { login: "mallory" } });
    const one = posts(1, 1, 901); // nock refuses a second post
    const two = posts(2, 1, 902);
    const send = async (n: number, round: string) => {
      for (const [i, body] of SIX.entries()) {
        const payload = issueCommentCreated(body, { login: "mallory" });
        payload.issue.number = n;
        payload.comment.id += i;
        await receive(stack, payload, `mallory-${round}-${n}-${i}`);
      }
      await stack.crewbot.background.idle();
    };

    await send(1, "a");
    expect(one).toHaveLength(1);
    expect(one[0]).toMatch(/^Sorry @\u200Bmallory, only people with write/);
    const skipped = lines.filter((l) => l.msg === "reply not posted: already answered, or the replies' budget is spent");
    expect(skipped).toHaveLength(5);
    expect(skipped[0]).toMatchObject({ login: "mallory", owner: "Codertocat", repo: "Hello-World", number: 1, reason: "already answered on this issue within the hour" });

    await send(2, "a");
    expect(two).toHaveLength(1);
    expect(await stack.crewbot.queue.listRecent()).toEqual([]);

    // An hour later (the clock moved, nothing else): one more answer on the first issue, and only one.
    const realNow = Date.now.bind(Date);
    const later = vi.spyOn(Date, "now").mockImplementation(() => realNow() + 3_600_000 + 1000);
    try {
      mockInstallationToken(); // the first token has expired by then
      const again = posts(1, 1, 903);
      await send(1, "b");
      expect(again).toHaveLength(1);
    } finally {
      later.mockRestore();
    }
  });

  it("the replies of an installation draw on a small budget of their own: the sixth stranger's is only logged", async () => {
    const { lines, log } = logSink();
    const stack = await startStack([], { runner: false, log });
    mockInstallationToken();
    const bodies: string[] = [];
    for (let n = 1; n <= 5; n++) nock(API).post(`${REPO_PATH}/issues/${n}/comments`, (b) => (bodies.push(b.body), true)).reply(201, { id: 910 + n });
    for (let n = 1; n <= 6; n++) {
      mockPermission(`stranger${n}`, "read");
      const payload = issueCommentCreated("/implement", { login: `stranger${n}` });
      payload.issue.number = n;
      await receive(stack, payload, `stranger-${n}`);
    }
    await stack.crewbot.background.idle();
    expect(bodies).toHaveLength(5);
    expect(lines.find((l) => l.login === "stranger6" && String(l.msg).startsWith("reply not posted"))).toMatchObject({ number: 6, reason: "the installation's 5 replies of the hour are spent" });
  });
});

describe("the bucket", () => {
  it("refills one command every 12 s, and answers 'slow down' once per time it runs dry", () => {
    let now = 0;
    const admission = new Admission({ burst: 5, perMinute: 5 }, () => now);
    const take = () => admission.take(1, "Codertocat");
    expect(Array.from({ length: 5 }, take)).toEqual(["go", "go", "go", "go", "go"]);
    expect([take(), take(), take()]).toEqual(["slow-down", "drop", "drop"]);
    expect(admission.waitSeconds(1, "codertocat")).toBe(12);
    now += 12_000;
    expect([take(), take(), take()]).toEqual(["go", "slow-down", "drop"]);
    now += 60_000;
    expect(Array.from({ length: 6 }, take)).toEqual(["go", "go", "go", "go", "go", "slow-down"]);
    expect(admission.take(2, "Codertocat")).toBe("go"); // per installation
  });

  it("remembers deliveries, forgets a failed one, and stays bounded", () => {
    const admission = new Admission();
    expect(admission.firstDelivery("a")).toBe(true);
    expect(admission.firstDelivery("a")).toBe(false);
    admission.forget("a");
    expect(admission.firstDelivery("a")).toBe(true);
    for (let i = 0; i < 20_000; i++) admission.firstDelivery(`d${i}`);
    expect(admission.firstDelivery("d19999")).toBe(false);
    expect(admission.firstDelivery("a")).toBe(true); // the oldest were forgotten
  });
});
