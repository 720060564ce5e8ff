/**
 * `/ask` and mentions end to end (DESIGN.md §1): the question answered read-only in the job's one
 * comment, each citation a permalink at the commit the agent read — checked there first, so a
 * file or line that is not there is shown unlinked, never as a broken link.
 */
import nock from "nock";
import { describe, expect, it } from "vitest";
import { webUrl } from "../../src/github/urls.js";
import { issueCommentCreated } from "../fixtures/payloads.js";
import { gitSync } from "../helpers/git-repo.js";
import { useNock } from "../helpers/github.js";
import { API, mockInstallationToken, mockJobComments, mockPermission, mockRepoConfig, normalise, REPO_PATH, startStack, type Stack } from "./harness.js";
import { commitOnFeature } from "./review-harness.js";
import { writeFile } from "node:fs/promises";
import path from "node:path";

useNock();

const SERVER = "import http from 'node:http';\nconst server = http.createServer(handle);\nserver.listen(3000);\nexport default server;\n";
const FIGURES = /· [\d.]+k? tokens · \$[\d.]+/;

const toolsOf = (stack: Stack) => stack.fake.requests.map((r) => (r.body.tools as Array<{ name: string }>).map((t) => t.name));

describe("/ask on an issue", () => {
  it("answers in the progress comment, read-only, citing code as permalinks at the commit read; a citation that does not check out is plain text with a note", async () => {
    const answer = [
      "The server starts in `src/server.ts#L2-L3`: it is created, then listens on port 3000 (src/server.ts#L3).",
      "",
      "The handler is [defined here](src/server.ts#L1). The port is not read from `src/config.ts#L1`, and `src/server.ts#L9-L12` does not exist.",
      "",
      "```ts",
      "server.listen(3000); // src/server.ts#L3",
      "```",
    ].join("\n");
    const stack = await startStack([{ content: [{ type: "tool_use", name: "read", input: { path: "src/server.ts" } }] }, { text: answer }], { files: { "README.md": "# Hello\n", "src/server.ts": SERVER } });
    const sha = gitSync(stack.remoteDir, "rev-parse", "main").trim();
    const blob = `${webUrl(stack.cloneUrl)}/blob/${sha}/src/server.ts`;
    const payload = issueCommentCreated("/ask where does the server start?", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
    mockInstallationToken();
    mockPermission("Codertocat", "write");
    const edits: string[] = [];
    mockJobComments({ progressId: 4001, edits, trigger: { id: payload.comment.id } });

    const job = await stack.runToEnd("issue_comment", payload, "ask-issue-1");

    expect(job.state).toBe("succeeded");
    expect(job.kind).toBe("ask");
    expect(normalise(edits.at(-1)!, job.id).replace(FIGURES, "· T tokens · $C")).toBe(
      [
        "✅ Done · Ns · T tokens · $C",
        "<!-- crewbot:job:JOB -->",
        "",
        "[Transcript](https://crewbot.example.com/jobs/JOB)",
        "",
        `The server starts in [\`src/server.ts#L2-L3\`](${blob}#L2-L3): it is created, then listens on port 3000 ([src/server.ts#L3](${blob}#L3)).`,
        "",
        `The handler is [defined here](${blob}#L1). The port is not read from \`src/config.ts#L1\` _(not linked: no such file at ${sha.slice(0, 7)})_, and \`src/server.ts#L9-L12\` _(not linked: the file has 4 lines at ${sha.slice(0, 7)})_ does not exist.`,
        "",
        "```ts",
        "server.listen(3000); // src/server.ts#L3",
        "```",
      ].join("\n"),
    );
    // One agent, read-only tools, the question as its task.
    expect(stack.fake.requests).toHaveLength(2);
    expect(toolsOf(stack)[0]).toEqual(["read", "ls", "find", "grep", "bash", "scratch_write"]);
    expect(JSON.stringify(stack.fake.requests[0]!.body.messages[0])).toContain("where does the server start?");
  });
});

describe("a mention of the app on a pull request", () => {
  /** A PR whose head adds `src/feature.ts`; `headRepo` says whose branch it is. */
  async function askOnPullRequest(headRepo: string, answer: string) {
    const stack = await startStack([{ text: answer }], { files: { "README.md": "# Hello\n", "src/server.ts": SERVER } });
    gitSync(stack.remoteDir, "branch", "feature");
    const head = await commitOnFeature(stack, (dir) => writeFile(path.join(dir, "src", "feature.ts"), "export const feature = 1;\nexport const more = 2;\n"), "add a feature");
    const payload = issueCommentCreated("@crewbot what does this pull request add?", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
    payload.issue.pull_request = { url: `${API}${REPO_PATH}/pulls/1` };
    mockInstallationToken();
    mockPermission("Codertocat", "write");
    mockRepoConfig(); // the trigger reads `triggers.mention` (then remembers it a minute); the job reads the config again
    const edits: string[] = [];
    mockJobComments({ progressId: 4002, edits, trigger: { id: payload.comment.id }, pull: {} })
      .get(`${REPO_PATH}/pulls/1`)
      .reply(200, { number: 1, head: { sha: head, ref: "feature", repo: { full_name: headRepo } }, base: { ref: "main", sha: "0".repeat(40) } });
    const job = await stack.runToEnd("issue_comment", payload, `ask-pr-${headRepo}`);
    return { stack, job, head, final: edits.at(-1)!, blob: (file: string) => `${webUrl(stack.cloneUrl)}/blob/${head}/${file}` };
  }

  it("is /ask with its text: the answer reads the head and its diff, and cites the head's files at the head's commit", async () => {
    const { stack, job, head, final, blob } = await askOnPullRequest("Codertocat/Hello-World", "It adds `src/feature.ts#L1-L2`.");
    expect(job, job.outcome).toMatchObject({ state: "succeeded", kind: "ask" });
    expect(final).toContain(`It adds [\`src/feature.ts#L1-L2\`](${blob("src/feature.ts")}#L1-L2).`);
    const prompt = JSON.stringify(stack.fake.requests[0]!.body.messages[0]);
    expect(prompt).toContain("what does this pull request add?");
    expect(prompt).toContain("the diff of pull request #1");
    expect(prompt).toContain("+export const feature = 1;");
    expect(toolsOf(stack)[0]).toContain("bash");
    expect(head).toMatch(/^[0-9a-f]{40}$/);
  });

  it("on a fork's pull request the answerer gets no bash", async () => {
    const { stack, job, final, blob } = await askOnPullRequest("eve/Hello-World", "See `src/feature.ts#L2`.");
    expect(job.state).toBe("succeeded");
    expect(final).toContain(`See [\`src/feature.ts#L2\`](${blob("src/feature.ts")}#L2).`);
    expect(toolsOf(stack)[0]).toEqual(["read", "ls", "find", "grep", "scratch_write"]);
  });
});

describe("mentions turned off", () => {
  it("`triggers.mention: false`: a mention starts nothing and gets no answer; a slash command still works there", async () => {
    const stack = await startStack([], { runner: false });
    mockInstallationToken();
    mockRepoConfig({ repo: "triggers:\n  mention: false\n" });
    await stack.probot.receive({ id: "mention-off-1", name: "issue_comment", payload: issueCommentCreated("@crewbot plan this", { cloneUrl: stack.cloneUrl }) } as never);
    await stack.crewbot.background.idle();
    expect(await stack.crewbot.queue.listRecent()).toEqual([]);

    mockPermission("Codertocat", "write");
    await stack.probot.receive({ id: "mention-off-2", name: "issue_comment", payload: issueCommentCreated("/ask what is this?", { cloneUrl: stack.cloneUrl }) } as never);
    expect((await stack.crewbot.queue.listRecent()).map((j) => j.kind)).toEqual(["ask"]);
  });

  it("with mentions on (the default), a mention by someone without write access gets the one refusal a slash command gets", async () => {
    const stack = await startStack([], { runner: false });
    mockInstallationToken();
    mockRepoConfig();
    mockPermission("mallory", "read");
    let reply: any;
    nock(API).post(`${REPO_PATH}/issues/1/comments`, (b) => ((reply = b), true)).reply(201, { id: 1 });
    await stack.probot.receive({ id: "mention-stranger", name: "issue_comment", payload: issueCommentCreated("@crewbot implement it", { cloneUrl: stack.cloneUrl, login: "mallory" }) } as never);
    await stack.crewbot.background.idle();
    expect(await stack.crewbot.queue.listRecent()).toEqual([]);
    expect(reply.body).toMatch(/^Sorry @\u200Bmallory, only people with write, maintain or admin permission/);
  });
});
