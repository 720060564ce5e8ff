/**
 * Real repositories: one renamed after it was selected for a "selected repositories" installation
 * is still covered (installation events and webhooks carry its id), a new one that took its old
 * name is not; a custom repository role counts by the permission it grants.
 */
import examples from "@octokit/webhooks-examples";
import nock from "nock";
import { describe, expect, it } from "vitest";
import { issueCommentCreated } from "../fixtures/payloads.js";
import { useNock } from "../helpers/github.js";
import { API, INSTALLATION_ID, mockInstallationToken, REPO_OWNER, REPO_PATH, startStack, type Stack } from "./harness.js";

useNock();

type Json = Record<string, any>;

function installationCreated(): Json {
  const group = (examples as unknown as Array<{ name: string; examples: Json[] }>).find((g) => g.name === "installation")!;
  const created = structuredClone(group.examples.find((e) => e.action === "created")!);
  created.installation.id = INSTALLATION_ID;
  created.installation.repository_selection = "selected";
  return created;
}

const receive = (stack: Stack, name: string, payload: unknown, id = `d-${Math.random()}`) => stack.probot.receive({ id, name, payload } as never);

/** `/plan` on issue #1 of the repository with this id, now named `name`. */
function planOn(id: number, name: string, login = "Codertocat"): Json {
  const payload = issueCommentCreated("/plan", { login });
  payload.repository.id = id;
  payload.repository.name = name;
  payload.repository.full_name = `${REPO_OWNER}/${name}`;
  return payload;
}

const permission = (repo: string, login: string, answer: { permission: string; role_name: string }) =>
  nock(API).get(`/repos/${REPO_OWNER}/${repo}/collaborators/${login}/permission`).reply(200, { ...answer, user: { login } });

describe("a selected repository renamed since it was selected", () => {
  it("still takes commands under its new name; a new repository with its old name does not", async () => {
    const stack = await startStack([], { runner: false });
    const created = installationCreated();
    const [selected] = created.repositories as Array<{ id: number; full_name: string }>;
    expect(selected!.full_name).toBe(`${REPO_OWNER}/Hello-World`);
    await receive(stack, "installation", created);

    mockInstallationToken();
    permission("Hello-Universe", "Codertocat", { permission: "write", role_name: "write" });
    await receive(stack, "issue_comment", planOn(selected!.id, "Hello-Universe"));
    await stack.crewbot.background.idle();
    const jobs = await stack.crewbot.queue.listRecent();
    expect(jobs.map((j) => [j.kind, j.target.repo, j.state])).toEqual([["plan", "Hello-Universe", "queued"]]);

    // Another repository (another id) that now carries the old name: not selected, so nothing at all.
    await receive(stack, "issue_comment", planOn(selected!.id + 1000, "Hello-World"));
    await stack.crewbot.background.idle();
    expect(await stack.crewbot.queue.listRecent()).toHaveLength(1);
  });
});

describe("a custom repository role", () => {
  it("that grants write may start a job; one that grants read gets the refusal", async () => {
    const stack = await startStack([], { runner: false });
    mockInstallationToken();
    permission("Hello-World", "dana", { permission: "write", role_name: "deployer" });
    permission("Hello-World", "rick", { permission: "read", role_name: "deployer" });
    const bodies: string[] = [];
    nock(API)
      .post(`${REPO_PATH}/issues/1/comments`, (b) => (bodies.push(b.body), true))
      .reply(201, { id: 901 });

    await receive(stack, "issue_comment", issueCommentCreated("/plan", { login: "dana" }));
    await stack.crewbot.background.idle();
    expect((await stack.crewbot.queue.listRecent()).map((j) => [j.trigger.sender, j.state])).toEqual([["dana", "queued"]]);

    await receive(stack, "issue_comment", issueCommentCreated("/plan", { login: "rick" }));
    await stack.crewbot.background.idle();
    expect(bodies).toEqual([
      "Sorry @\u200Brick, only people with write, maintain or admin permission on this repository can run crewbot commands. Nothing was started.",
    ]);
    expect(await stack.crewbot.queue.listRecent()).toHaveLength(1);
  });
});
