import nock from "nock";
import { describe, expect, it } from "vitest";
import { renderHelp } from "../../src/report/render.js";
import { MAX_REQUEST_CHARS } from "../../src/triggers/comment-command.js";
import { issueCommentCreated } from "../fixtures/payloads.js";
import { useNock } from "../helpers/github.js";
import { API, mockInstallationToken, mockPermission, REPO_PATH, startStack, type Stack } from "./harness.js";

useNock();

/** Posts of comments on issue #1, recorded. */
function expectComments(count: number, id = 777) {
  const bodies: string[] = [];
  nock(API)
    .post(`${REPO_PATH}/issues/1/comments`, (b) => (bodies.push(b.body), true))
    .times(count)
    .reply(201, { id });
  return bodies;
}

const receive = (stack: Stack, payload: unknown, id = `d-${Math.random()}`) =>
  stack.probot.receive({ id, name: "issue_comment", payload } as never);

describe("comment triggers", () => {
  it("answers someone without write access once, and clones nothing", async () => {
    const stack = await startStack([], { runner: false });
    mockInstallationToken();
    mockPermission("mallory", "read");
    const bodies = expectComments(1);
    await receive(stack, issueCommentCreated("/plan", { login: "mallory" }));
    await stack.crewbot.background.idle();

    expect(bodies).toEqual([
      "Sorry @\u200Bmallory, only people with write, maintain or admin permission on this repository can run crewbot commands. Nothing was started.",
    ]);
    expect(await stack.crewbot.queue.listRecent()).toEqual([]);
    expect(stack.git.requests).toEqual([]);
  });

  it.each([
    ["a bot", (p: any) => ((p.comment.user.type = "Bot"), (p.sender.type = "Bot"))],
    ["the app itself", (p: any) => ((p.comment.user.type = "Bot"), (p.comment.user.login = "crewbot[bot]"))],
    ["a locked issue", (p: any) => (p.issue.locked = true)],
  ])("does nothing at all for %s", async (_what, edit) => {
    const stack = await startStack([], { runner: false });
    const payload = issueCommentCreated("/plan");
    edit(payload);
    await receive(stack, payload);
    await stack.crewbot.background.idle();
    expect(await stack.crewbot.queue.listRecent()).toEqual([]);
  });

  it("ignores comments that are not ours without a single request", async () => {
    const stack = await startStack([], { runner: false });
    await receive(stack, issueCommentCreated("/deploy to prod"));
    await receive(stack, issueCommentCreated("Looks good to me"));
    await stack.crewbot.background.idle();
    expect(await stack.crewbot.queue.listRecent()).toEqual([]);
  });

  it("gives the help text, naming an unknown subcommand", async () => {
    const stack = await startStack([], { runner: false });
    mockInstallationToken();
    mockPermission("Codertocat", "write");
    const bodies = expectComments(1);
    await receive(stack, issueCommentCreated("/crewbot dance"));
    await stack.crewbot.background.idle();
    expect(bodies[0]).toMatch(/^Unknown command `dance`\.\n\n\*\*crewbot\*\* runs a crew of agents/);
    expect(bodies[0]).toContain("| `/plan [instructions]` |");
  });

  it("always answers a writer (help, an unknown command, nothing to cancel, on one issue); a reader still gets one reply an hour", async () => {
    const stack = await startStack([], { runner: false });
    mockInstallationToken();
    mockPermission("Codertocat", "write");
    mockPermission("mallory", "read");
    const bodies = expectComments(4);
    const say = async (body: string, login: string, n: number) => {
      const payload = issueCommentCreated(body, { login });
      payload.comment.id += n;
      await receive(stack, payload, `answered-${n}`);
      await stack.crewbot.background.idle();
    };
    await say("/crewbot help", "Codertocat", 1);
    await say("/crewbot frobnicate", "Codertocat", 2);
    await say("/crewbot cancel", "Codertocat", 3);
    await say("/crewbot help", "mallory", 4);
    await say("/crewbot frobnicate", "mallory", 5);
    const help = renderHelp();
    expect(bodies).toEqual([help, `Unknown command \`frobnicate\`.\n\n${help}`, "There is no crewbot job running or queued here.", help]);
    expect(await stack.crewbot.queue.listRecent()).toEqual([]);
  });

  it("makes one job of a redelivered webhook", async () => {
    const stack = await startStack([], { runner: false });
    mockInstallationToken();
    mockPermission("Codertocat", "write"); // asked once: the answer is remembered briefly
    const payload = issueCommentCreated("/plan");
    await receive(stack, payload, "same-delivery");
    await receive(stack, payload, "same-delivery");
    const jobs = await stack.crewbot.queue.listRecent();
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ deliveryId: "same-delivery", kind: "plan", state: "queued" });
  });

  it("answers a 1 MB comment instead of running it", async () => {
    const stack = await startStack([], { runner: false });
    mockInstallationToken();
    mockPermission("Codertocat", "admin");
    const bodies = expectComments(1);
    await receive(stack, issueCommentCreated(`/plan ${"a".repeat(1024 * 1024)}`));
    await stack.crewbot.background.idle();
    expect(bodies[0]).toContain(`crewbot takes at most ${MAX_REQUEST_CHARS.toLocaleString("en")}`);
    expect(await stack.crewbot.queue.listRecent()).toEqual([]);
  });

  it("says a second command waits behind the first, and cancel ends the queued one", async () => {
    const stack = await startStack([], { runner: false });
    mockInstallationToken();
    mockPermission("Codertocat", "admin");
    const first = issueCommentCreated("/plan first");
    const second = issueCommentCreated("/plan second");
    second.comment.id += 1;
    const edits: string[] = [];
    const bodies = expectComments(1, 555);
    nock(API)
      .post(`${REPO_PATH}/issues/comments/${second.comment.id}/reactions`, { content: "eyes" })
      .reply(201, {})
      .patch(`${REPO_PATH}/issues/comments/555`, (b) => (edits.push(b.body), true))
      .reply(200, {});

    await receive(stack, first);
    await receive(stack, second);
    await stack.crewbot.background.idle();
    const [later, earlier] = await stack.crewbot.queue.listRecent();
    expect(bodies[0]).toBe(
      `⏳ Queued behind job ${earlier!.id}\n<!-- crewbot:job:${later!.id} -->\n\n[Transcript](https://crewbot.example.com/jobs/${later!.id})`,
    );
    expect((await stack.crewbot.queue.get(later!.id))?.progressCommentId).toBe(555);

    await receive(stack, issueCommentCreated("/crewbot cancel"));
    await stack.crewbot.background.idle();
    expect(edits[0]).toMatch(/^⏹ Cancelled by @\u200BCodertocat · /);
    expect((await stack.crewbot.queue.get(later!.id))?.state).toBe("cancelled");
    expect((await stack.crewbot.queue.get(earlier!.id))?.state).toBe("cancelled");
  });

  it("says so when there is nothing to cancel", async () => {
    const stack = await startStack([], { runner: false });
    mockInstallationToken();
    mockPermission("Codertocat", "write");
    const bodies = expectComments(1);
    await receive(stack, issueCommentCreated("/crewbot cancel"));
    await stack.crewbot.background.idle();
    expect(bodies).toEqual(["There is no crewbot job running or queued here."]);
  });
});
