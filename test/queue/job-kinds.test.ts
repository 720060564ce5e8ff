/**
 * The job-kinds table (queue/job-kinds.ts) is the one list of kinds and commands: every place that
 * names them must take each row of it. A kind or command one of them forgets fails here.
 */
import { afterEach, describe, expect, it } from "vitest";
import { ConfigSchema, DEFAULT_CONFIG } from "../../src/config/schema.js";
import { JOB_TYPES, jobTypeOf } from "../../src/jobs/job-types.js";
import { COMMAND_KINDS, isCommandKind, JOB_KIND_NAMES, JOB_KINDS, jobCommand, type JobKind } from "../../src/queue/job-kinds.js";
import { validateNewJob } from "../../src/queue/new-job.js";
import type { NewJob } from "../../src/queue/types.js";
import { renderHelp } from "../../src/report/render.js";
import { decide, preflight, type CommentPayload } from "../../src/triggers/comment-command.js";
import { parseCommand } from "../../src/triggers/parse-command.js";
import { issueCommentCreated } from "../fixtures/payloads.js";
import { Queues, newJob, tempDataDir } from "./helpers.js";

const queues = new Queues();
afterEach(() => queues.closeAll());

const NON_COMMAND_KINDS = JOB_KIND_NAMES.filter((kind) => !isCommandKind(kind));
const jobOf = (kind: JobKind): NewJob => ({ ...newJob(), kind });

describe("the job-kinds table", () => {
  it("has the kinds the queue has always stored, commands among them", () => {
    expect(JOB_KIND_NAMES).toEqual(["plan", "implement", "review", "ask", "describe", "ci-fix", "learn"]);
    expect(COMMAND_KINDS).toEqual(["plan", "implement", "review", "ask", "describe"]);
    expect(NON_COMMAND_KINDS).toEqual(["ci-fix", "learn"]);
  });

  it("no command shadows /answer or /crewbot, which are not jobs", () => {
    for (const word of ["answer", "crewbot", "help", "cancel"]) expect(Object.hasOwn(JOB_KINDS, word), word).toBe(false);
  });
});

describe.each(JOB_KIND_NAMES)("job kind %s", (kind) => {
  it("is accepted at enqueue, by the check and by the queue", async () => {
    expect(() => validateNewJob(jobOf(kind))).not.toThrow();
    const q = queues.open(await tempDataDir());
    const { job } = await q.enqueue(jobOf(kind));
    expect((await q.get(job.id))?.kind).toBe(kind);
  });

  it("is a job type the runner knows", () => {
    const type = jobTypeOf({ kind, target: { isPullRequest: false } as NewJob["target"] });
    expect(JOB_TYPES).toContain(type);
  });
});

it("a learn job's request is checked at enqueue, and says which learn job runs", () => {
  const learn = (value: unknown) => ({ ...jobOf("learn"), learn: value }) as NewJob;
  expect(() => validateNewJob(learn({ action: "propose", automatic: true, reason: "due" }))).not.toThrow();
  expect(() => validateNewJob(learn({ action: "delete", automatic: true, reason: "x" }))).toThrow(/action \(propose or list\)/);
  expect(() => validateNewJob(learn({ action: "list", reason: "x" }))).toThrow(/automatic/);
  expect(jobTypeOf(learn({ action: "list", automatic: false, reason: "x" }))).toBe("learnings");
  expect(jobTypeOf(learn({ action: "propose", automatic: false, reason: "x" }))).toBe("learn");
});

it("a kind outside the table is refused at enqueue", () => {
  expect(() => validateNewJob(jobOf("deploy" as JobKind))).toThrow(/unknown job kind: deploy/);
  expect(() => validateNewJob(jobOf("toString" as JobKind))).toThrow(/unknown job kind/);
});

describe.each(NON_COMMAND_KINDS)("job kind %s, started by no command", (kind) => {
  it("does not parse as a command, nor has a config switch or a help row", () => {
    expect(parseCommand(`/${kind}`)).toBeNull();
    expect(Object.keys(DEFAULT_CONFIG.commands)).not.toContain(kind);
    expect(ConfigSchema.safeParse({ commands: { [kind]: false } }).success).toBe(false);
    expect(renderHelp()).not.toContain(`\`/${kind}`);
  });
});

describe.each(COMMAND_KINDS)("command /%s", (kind) => {
  const command = jobCommand(kind);

  it("parses, with its request", () => {
    expect(parseCommand(`/${kind}`)).toEqual({ kind, request: "" });
    expect(parseCommand(`/${kind.toUpperCase()} with care\nand more`)).toEqual({ kind, request: "with care\nand more" });
  });

  it("has its rows in the help, each marked when the repository turns it off", () => {
    expect(command.help.length).toBeGreaterThan(0);
    const help = renderHelp();
    for (const row of command.help) {
      expect(row.usage === `/${kind}` || row.usage.startsWith(`/${kind} `), row.usage).toBe(true);
      expect(help).toContain(`| \`${row.usage}\` | ${row.where} | ${row.what} |`);
    }
    expect(renderHelp({ commands: { [kind]: false } }).match(/turned off in this repository/g)).toHaveLength(command.help.length);
  });

  it("is a switch of config `commands`, on by default", () => {
    expect(DEFAULT_CONFIG.commands[kind]).toBe(true);
    const parsed = ConfigSchema.safeParse({ commands: { [kind]: false } });
    expect(parsed.success && parsed.data.commands[kind]).toBe(false);
  });

  it.each([true, false])("starts its job from a writer's comment (on a pull request: %s), or says where it works", (onPullRequest) => {
    const payload = issueCommentCreated(`/${kind} please`) as unknown as CommentPayload;
    if (onPullRequest) payload.issue!.pull_request = { url: "https://api.github.com/repos/Codertocat/Hello-World/pulls/1" };
    const pre = preflight(payload);
    if (!pre.go) throw new Error(pre.reason);
    const decision = decide(payload, pre, "write", "delivery-1");
    if (onPullRequest || command.onIssues) {
      expect(decision).toMatchObject({ action: "enqueue", job: { kind, trigger: { request: "please" } } });
      if (decision.action === "enqueue") expect(() => validateNewJob(decision.job)).not.toThrow();
    } else {
      expect(decision).toEqual({ action: "reply", body: `\`/${kind}\` works on pull requests; on an issue, try \`/plan\`.`, reason: `${kind} on an issue` });
    }
  });
});

it("every label trigger is a command", () => {
  for (const kind of Object.keys(DEFAULT_CONFIG.triggers.labels)) expect(COMMAND_KINDS).toContain(kind);
});
