/**
 * Per-installation limits and installation events, through the whole app. The limits are
 * read when the app is composed, so `stackWith` starts the harness's stack with them set.
 */
import examples from "@octokit/webhooks-examples";
import { Probot } from "probot";
import { describe, expect, it } from "vitest";
import type { Crewbot } from "../../src/app/compose.js";
import { SqliteInstallations } from "../../src/store/sqlite/installations.js";
import type { JobRecord } from "../../src/queue/types.js";
import { issueCommentCreated } from "../fixtures/payloads.js";
import type { FakeServer, Script } from "../helpers/fake-anthropic.js";
import { useNock } from "../helpers/github.js";
import { INSTALLATION_ID, mockInstallationToken, mockJobComments, mockPermission, REPO_NAME, REPO_OWNER, startStack } from "./harness.js";

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


/** `startStack` with `extraEnv` in the app's environment, delivering issue comments. */
async function stackWith(script: Script, extraEnv: NodeJS.ProcessEnv): Promise<OwnStack> {
  const base = await startStack(script, { env: extraEnv });
  return {
    probot: base.probot,
    crewbot: base.crewbot,
    fake: base.fake,
    cloneUrl: base.cloneUrl,
    async runToEnd(payload, deliveryId) {
      const job = await base.runToEnd("issue_comment", payload, deliveryId);
      expect(job.deliveryId).toBe(deliveryId);
      return job;
    },
    stop: () => base.stop(),
  };
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
        // By id too, so a rename keeps the repository covered.
        repositories: [
          { fullName: "Codertocat/Hello-World", id: created.repositories[0].id },
          { fullName: "Codertocat/Space", id: added.repositories_added[0].id },
        ],
        allRepositories: false,
      });
    } finally {
      await installations.close();
    }
  });
});
