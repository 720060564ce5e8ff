/**
 * A fork's pull request end to end: its code is a stranger's (DESIGN.md §4). A symlink the fork
 * pushes never shows crewbot's reader a host file (the thread answer quotes the commented file),
 * and `/plan` on the fork's PR offers no `bash`, so no script of the fork runs.
 */
import { mkdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import nock from "nock";
import { describe, expect, it } from "vitest";
import { issueCommentCreated, reviewCommentCreated } from "../fixtures/payloads.js";
import { gitSync } from "../helpers/git-repo.js";
import { useNock } from "../helpers/github.js";
import { API, mockInstallationToken, mockJobComments, mockPermission, mockPullConversation, mockRepoConfig, REPO_PATH, startStack } from "./harness.js";
import { commitOnFeature, lines } from "./review-harness.js";

useNock();

const FORK = "eve/Hello-World";
const INDEX = lines(20, (i) => `console.log(${i});`);

describe("a fork's symlink to a host file, after crewbot's review comment on it", () => {
  const TOP = { id: 2001, body: "**Warning** — line 10 logs a number; is that intended?", path: "index.js", line: 10 };

  it("a writer's reply gets an answer in the thread, and the model never sees the host file", async () => {
    const stack = await startStack([{ text: "The file cannot be read here any more; the finding stands until it is a regular file again." }], { files: { "index.js": INDEX } });
    // Another job's artifact on the host: what the fork's link points at.
    const CANARY = `canary-${Math.random().toString(36).slice(2)}`;
    const hostFile = path.join(stack.dataDir, "jobs", "other-job", "artifacts", "secret.txt");
    await mkdir(path.dirname(hostFile), { recursive: true });
    await writeFile(hostFile, `${lines(20, (i) => `secret line ${i}`)}TOKEN=${CANARY}\n`.replace("secret line 10", `secret line 10 ${CANARY}`));
    gitSync(stack.remoteDir, "branch", "feature");
    await commitOnFeature(stack, (dir) => writeFile(path.join(dir, "index.js"), INDEX.replace("console.log(10);", "console.log('ten');")), "log ten");
    // After crewbot's comment, eve turns the commented file into a link to the host file.
    const head = await commitOnFeature(
      stack,
      async (dir) => {
        gitSync(dir, "rm", "-q", "index.js");
        await symlink(hostFile, path.join(dir, "index.js"));
      },
      "index.js is elsewhere now",
    );

    mockInstallationToken();
    mockPermission("Codertocat", "write");
    mockRepoConfig();
    mockPullConversation();
    let reply: any;
    nock(API)
      .get(`${REPO_PATH}/pulls/comments/${TOP.id}`)
      .times(2)
      .reply(200, { ...TOP, user: { login: "crewbot[bot]", type: "Bot" } })
      .get(`${REPO_PATH}/issues/1/comments`)
      .query(true)
      .reply(200, [])
      .post(`${REPO_PATH}/pulls/1/comments`, (b) => ((reply = b), true))
      .reply(201, { id: 2003, html_url: "https://github.com/Codertocat/Hello-World/pull/1#discussion_r2003" });

    const payload = reviewCommentCreated("Is it still a problem?", { cloneUrl: stack.cloneUrl, defaultBranch: "main", id: 2002, path: "index.js", line: 10, side: "RIGHT", inReplyTo: TOP.id });
    payload.pull_request.number = 1;
    payload.pull_request.head = { ...payload.pull_request.head, sha: head, ref: "feature", repo: { ...payload.pull_request.head.repo, full_name: FORK } };
    payload.pull_request.base = { ...payload.pull_request.base, ref: "main" };
    const job = await stack.runToEnd("pull_request_review_comment", payload, "fork-symlink-reply");

    expect(job.outcome).toBe("✅ Answered in the thread: https://github.com/Codertocat/Hello-World/pull/1#discussion_r2003");
    expect(reply.body).toMatch(/^The file cannot be read here any more/);
    expect(stack.fake.requests).toHaveLength(1);
    const request = JSON.stringify(stack.fake.requests[0]!.body);
    expect(request).not.toContain(CANARY);
    expect(request).not.toContain("secret line");
    // Named, with the reason, instead of its content.
    expect(request).toContain("index.js at the pull request's head");
    expect(request).toContain("(not readable: symlink leaves the checkout)");
    // A fork's code: no bash for the answerer either.
    expect((stack.fake.requests[0]!.body.tools as Array<{ name: string }>).map((t) => t.name).sort()).toEqual(["find", "grep", "ls", "read", "scratch_write"]);
  });
});

describe("/plan on a pull request", () => {
  /** The PR's head, and what the fork's script does there: runs (the repository's own branch, in the sandbox) or never. */
  async function planOn(headRepo: string) {
    // What the fork's script prints only when it runs (its text never spells it).
    const RAN = "fork-script-ran-42";
    const stack = await startStack(
      [
        { content: [{ type: "tool_use", name: "bash", input: { command: "sh ./build.sh" } }] },
        { text: "Scout report: build.sh and README.md." },
        { text: "## Goal\nTidy.\n\n## Plan\n1. Tidy the README\n\n## Risks\nNone." },
      ],
      { files: { "README.md": "# Hello\n" } },
    );
    gitSync(stack.remoteDir, "branch", "feature");
    await commitOnFeature(stack, (dir) => writeFile(path.join(dir, "build.sh"), 'printf "fork-script-ran-%s\\n" "$((6*7))"\n'), "add a build script");

    const payload = issueCommentCreated("/plan tidy up", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
    payload.issue.pull_request = { url: `${API}${REPO_PATH}/pulls/1` };
    mockInstallationToken();
    mockPermission("Codertocat", "write");
    const edits: string[] = [];
    // The job record names no head: the job asks GitHub for the PR before cloning.
    mockJobComments({ progressId: 3001, edits, trigger: { id: payload.comment.id }, pull: {} }).get(`${REPO_PATH}/pulls/1`).reply(200, { head: { repo: { full_name: headRepo } } });

    const job = await stack.runToEnd("issue_comment", payload, `plan-${headRepo}`);

    expect(job.outcome).toMatch(/^✅ Done · /);
    expect(edits.at(-1)).toContain("- [ ] Tidy the README");
    const requests = stack.fake.requests.map((r) => r.body);
    return { requests, offered: requests.map((body) => (body.tools as Array<{ name: string }>).map((t) => t.name)), ran: JSON.stringify(requests).includes(RAN) };
  }

  it("on a fork's PR offers no bash: the model's scripted bash call cannot run the fork's script, and the plan is made read-only", async () => {
    const { requests, offered, ran } = await planOn(FORK);
    for (const tools of offered) expect(tools).not.toContain("bash");
    expect(ran).toBe(false);
    // The scripted call is answered as a tool that does not exist, never run.
    expect(JSON.stringify(requests[1]!.messages.at(-1))).toMatch(/bash/);
  });

  it("on the repository's own branch, the same script does run in the sandbox (the check above can see a run)", async () => {
    const { offered, ran } = await planOn("Codertocat/Hello-World");
    expect(offered[0]).toContain("bash");
    expect(ran).toBe(true);
  });
});
