/**
 * Per-installation limits and installation events, through the whole app (issue 6). The harness's
 * `startStack` takes no extra environment and the limits are read when the app is composed, so
 * `stackWith` builds the stack the way the harness does, with the operator's variables added.
 */
import examples from "@octokit/webhooks-examples";
import { Probot } from "probot";
import { afterEach, describe, expect, it } from "vitest";
import { composeCrewbot, type Crewbot } from "../../src/app/compose.js";
import { SqliteInstallations } from "../../src/installations/sqlite-installations.js";
import { crewbotApp } from "../../src/index.js";
import type { JobRecord } from "../../src/queue/types.js";
import { issueCommentCreated } from "../fixtures/payloads.js";
import { startFakeAnthropic, type FakeServer, type Script } from "../helpers/fake-anthropic.js";
import { tempDir } from "../helpers/git-repo.js";
import { useNock } from "../helpers/github.js";
import {
  gitServer,
  INSTALLATION_ID,
  mockInstallationToken,
  mockJobComments,
  mockPermission,
  PRIVATE_KEY,
  REPO_NAME,
  REPO_OWNER,
  stackEnv,
  startStack,
  TestOctokit,
  WEBHOOK_SECRET,
} from "./harness.js";

useNock();

type Json = Record<string, any>;

function example(event: string, action: string): Json {
  const group = (examples as unknown as Array<{ name: string; examples: Json[] }>).find((g) => g.name === event);
  const found = group?.examples.find((e) => e.action === action);
  if (!found) throw new Error(`no ${event}.${action} example`);
  return structuredClone(found);
}

interface OwnStack {
  probot: Probot;
  crewbot: Crewbot;
  fake: FakeServer;
  cloneUrl: string;
  runToEnd(payload: unknown, deliveryId: string): Promise<JobRecord>;
  stop(): Promise<void>;
}

const own: OwnStack[] = [];
afterEach(async () => {
  await Promise.all(own.splice(0).map((s) => s.stop()));
});

/** As `startStack` in harness.ts, with `extraEnv` in the app's environment. */
async function stackWith(script: Script, extraEnv: NodeJS.ProcessEnv): Promise<OwnStack> {
  const fake = await startFakeAnthropic(script);
  const { git, cloneUrl } = await gitServer({ "README.md": "# Hello\n" });
  const dataDir = await tempDir("crewbot-data-");
  const env = { ...stackEnv(dataDir, fake.url), ...extraEnv };
  const probot = new Probot({ appId: 1, privateKey: PRIVATE_KEY, secret: WEBHOOK_SECRET, Octokit: TestOctokit, logLevel: "fatal" });
  let composed: Crewbot | undefined;
  await probot.load(async (app, options) => {
    composed = composeCrewbot(app, { env, runner: { pollMs: 50, leaseMs: 4000, heartbeatMs: 500 } });
    await crewbotApp(composed.triggers)(app, options);
  });
  const crewbot = composed!;
  await crewbot.runner.start();
  const waitFor = async (jobId: string): Promise<JobRecord> => {
    for (let i = 0; i < 600; i++) {
      const job = await crewbot.queue.get(jobId);
      if (job && ["succeeded", "failed", "cancelled"].includes(job.state)) return job;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`job ${jobId} did not end`);
  };
  const stack: OwnStack = {
    probot,
    crewbot,
    fake,
    cloneUrl,
    async runToEnd(payload, deliveryId) {
      await probot.receive({ id: deliveryId, name: "issue_comment", payload } as never);
      const [newest] = await crewbot.queue.listRecent({ limit: 1 });
      expect(newest?.deliveryId).toBe(deliveryId);
      const job = await waitFor(newest!.id);
      await crewbot.background.idle();
      return job;
    },
    async stop() {
      await crewbot.runner.stop({ drain: false, timeoutMs: 1000 });
      await crewbot.close();
      await git.close();
      await fake.close();
    },
  };
  own.push(stack);
  return stack;
}

const LIMIT_TEXT = "this installation reached its limit of 1 jobs per hour (CREWBOT_JOBS_PER_HOUR); try again later";

describe("per-installation limits, end to end", () => {
  it("ends a second /plan in the same hour with the limit named in its comment, before the model", async () => {
    const stack = await stackWith([{ text: "Scout report: README.md says hello." }, { text: "## Goal\nSay hello.\n\n## Plan\n1. Nothing\n\n## Risks\nNone." }], {
      CREWBOT_JOBS_PER_HOUR: "1",
    });
    mockInstallationToken();
    mockPermission("Codertocat", "write"); // asked once: remembered for the second command

    const first = issueCommentCreated("/plan", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
    const firstEdits: string[] = [];
    mockJobComments({ progressId: 601, edits: firstEdits, trigger: { id: first.comment.id } });
    const firstJob = await stack.runToEnd(first, "limit-first");
    expect(firstJob).toMatchObject({ state: "succeeded" });
    expect(firstJob.outcome).toMatch(/^✅ Done/);
    expect(stack.fake.requests).toHaveLength(2);

    const second = issueCommentCreated("/plan", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
    second.issue.number = 2;
    second.comment.id += 1;
    const secondEdits: string[] = [];
    // The job ends before it reads the conversation or the config.
    mockJobComments({ progressId: 602, edits: secondEdits, number: 2, trigger: { id: second.comment.id }, conversation: false });
    const secondJob = await stack.runToEnd(second, "limit-second");

    const limit = LIMIT_TEXT.replace(/[()$]/g, "\\$&");
    expect(secondJob).toMatchObject({ state: "failed", target: { number: 2 } });
    expect(secondJob.outcome).toMatch(new RegExp(`^❌ Failed: ${limit} · \\d+s · 0 tokens · \\$0\\.0000$`));
    expect(secondEdits.at(-1)).toMatch(new RegExp(`^❌ Failed: ${limit} · [^\\n]*\\n<!-- crewbot:job:${secondJob.id} -->`));
    expect(stack.fake.requests).toHaveLength(2); // the model was never asked for the second job
  });
});

describe("installation events, end to end", () => {
  it("cancels the queued jobs of an uninstalled installation, and records the uninstall", async () => {
    const stack = await startStack([], { runner: false });
    mockInstallationToken();
    mockPermission("Codertocat", "write");
    await stack.probot.receive({ id: "plan-before-uninstall", name: "issue_comment", payload: issueCommentCreated("/plan") } as never);
    const [queued] = await stack.crewbot.queue.listRecent();
    expect(queued).toMatchObject({ state: "queued", target: { installationId: INSTALLATION_ID, owner: REPO_OWNER, repo: REPO_NAME } });

    // Another installation's job waits too.
    const { job: other } = await stack.crewbot.queue.enqueue({
      deliveryId: "other-installation",
      kind: "plan",
      target: { installationId: INSTALLATION_ID + 1, owner: "Someone", repo: "Else", number: 1, isPullRequest: false },
      trigger: { sender: "someone", request: "", commentId: 1, commentKind: "issue_comment" },
      repo: { cloneUrl: "https://github.com/Someone/Else.git", defaultBranch: "main", private: false },
    });

    const deleted = example("installation", "deleted");
    deleted.installation.id = INSTALLATION_ID;
    deleted.installation.account.login = REPO_OWNER;
    deleted.sender.login = "Codertocat";
    await stack.probot.receive({ id: "uninstall", name: "installation", payload: deleted } as never);

    expect(await stack.crewbot.queue.get(queued!.id)).toMatchObject({ state: "cancelled", outcome: "⏹ Cancelled by @Codertocat" });
    expect((await stack.crewbot.queue.get(other.id))?.state).toBe("queued");

    const installations = new SqliteInstallations({ dataDir: stack.dataDir });
    try {
      expect(await installations.get(INSTALLATION_ID)).toMatchObject({ id: INSTALLATION_ID, account: REPO_OWNER, state: "deleted" });
    } finally {
      await installations.close();
    }
  });

  it("records who installed crewbot and on which repositories", async () => {
    const stack = await startStack([], { runner: false });
    const created = example("installation", "created");
    created.installation.id = INSTALLATION_ID;
    created.sender.login = "installer";
    await stack.probot.receive({ id: "install", name: "installation", payload: created } as never);

    const added = example("installation_repositories", "added");
    added.installation.id = INSTALLATION_ID;
    await stack.probot.receive({ id: "add-repo", name: "installation_repositories", payload: added } as never);

    const installations = new SqliteInstallations({ dataDir: stack.dataDir });
    try {
      expect(await installations.get(INSTALLATION_ID)).toMatchObject({
        id: INSTALLATION_ID,
        account: "Codertocat",
        installedBy: "installer",
        state: "active",
        repositories: ["Codertocat/Hello-World", "Codertocat/Space"],
        allRepositories: false,
      });
    } finally {
      await installations.close();
    }
  });
});
