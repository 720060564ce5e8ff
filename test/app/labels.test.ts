/**
 * Labels as commands, end to end: `crewbot:plan` added by a writer gives exactly one job, which
 * removes the label and says who added it; by a reader or a bot nothing but one reply; a label
 * turned off in the config, or any other label, starts nothing and writes nothing.
 */
import nock from "nock";
import { describe, expect, it } from "vitest";
import { issueLabeled } from "../fixtures/payloads.js";
import { useNock } from "../helpers/github.js";
import { API, mockInstallationToken, mockJobComments, mockPermission, mockRepoConfig, REPO_PATH, startStack, type Stack } from "./harness.js";

useNock();

const receive = (stack: Stack, payload: unknown, id: string) => stack.probot.receive({ id, name: "issues", payload } as never);

describe("label triggers", () => {
  it("a writer's crewbot:plan label starts one /plan job, which removes the label and says who added it", async () => {
    const stack = await startStack([{ text: "Scout report." }, { text: "## Plan\n1. Fix the README" }]);
    const payload = issueLabeled("crewbot:plan", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
    mockInstallationToken();
    mockRepoConfig(); // the trigger reads the label names
    mockPermission("Codertocat", "write");
    const edits: string[] = [];
    mockJobComments({ progressId: 601, edits, conversation: [] });
    const removed = nock(API).delete(`${REPO_PATH}/issues/1/labels/crewbot%3Aplan`).reply(200, []);

    const job = await stack.runToEnd("issues", payload, "label-plan-1");

    expect(job.kind).toBe("plan");
    expect(job.outcome).toMatch(/^✅ Done/);
    expect(removed.isDone()).toBe(true);
    expect(edits.at(-1)).toContain("Started by @Codertocat, who added the label `crewbot:plan`.");
    expect(edits.at(-1)).toContain("- [ ] Fix the README");
    expect(await stack.crewbot.queue.listRecent()).toHaveLength(1);
  });

  it("a reader's label gets one short reply and starts nothing; the label stays", async () => {
    const stack = await startStack([]);
    mockInstallationToken();
    mockRepoConfig();
    mockPermission("mallory", "read");
    let reply = "";
    nock(API).post(`${REPO_PATH}/issues/1/comments`, (b) => ((reply = b.body), true)).reply(201, { id: 602 });

    await receive(stack, issueLabeled("crewbot:implement", { login: "mallory" }), "label-reader");
    await stack.crewbot.background.idle();

    expect(reply).toBe("Sorry @mallory, the label `crewbot:implement` starts crewbot only when someone with write, maintain or admin permission adds it. Nothing was started.");
    expect(await stack.crewbot.queue.listRecent()).toEqual([]);
  });

  it("a bot's label gets one short reply and starts nothing, without asking its permission", async () => {
    const stack = await startStack([]);
    mockInstallationToken();
    mockRepoConfig();
    let reply = "";
    nock(API).post(`${REPO_PATH}/issues/1/comments`, (b) => ((reply = b.body), true)).reply(201, { id: 603 });

    await receive(stack, issueLabeled("crewbot:plan", { login: "triage-bot[bot]", senderType: "Bot" }), "label-bot");
    await stack.crewbot.background.idle();

    expect(reply).toMatch(/^The label `crewbot:plan` was added by a bot \(triage-bot\[bot\]\)/);
    expect(await stack.crewbot.queue.listRecent()).toEqual([]);
  });

  it.each([
    ["turned off in the config", "crewbot:plan", 'triggers:\n  labels:\n    plan: ""\n'],
    ["any other label", "bug", undefined],
  ])("a label %s starts nothing and writes nothing", async (_what, label, config) => {
    const stack = await startStack([]);
    mockInstallationToken();
    mockRepoConfig(config === undefined ? {} : { repo: config });

    await receive(stack, issueLabeled(label), `label-off-${label}`);
    await stack.crewbot.background.idle();

    expect(await stack.crewbot.queue.listRecent()).toEqual([]);
  });
});
