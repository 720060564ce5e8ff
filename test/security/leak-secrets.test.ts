/**
 * Secrets: after real /plan, /implement (draft PR) and automatic-review runs — with agents
 * that go looking for secrets — no operator or job secret is in any model request, tool output,
 * GitHub write, commit, branch, log line, transcript entry or file of the data dir; and a
 * token-shaped string the model invents or reads is redacted in everything posted.
 */
import { writeFileSync } from "node:fs";
import { mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import nock from "nock";
import { describe, expect, it } from "vitest";
import { issueCommentCreated, pullRequestEvent } from "../fixtures/payloads.js";
import { gitSync } from "../helpers/git-repo.js";
import { useNock } from "../helpers/github.js";
import { ANTHROPIC_KEY, API, mockBotUser, mockInstallationToken, mockJobComments, mockPermission, mockRepoConfig, REPO_PATH, TOKEN } from "../app/harness.js";
import { filesUnder, leaks, MCP_TOKEN, remoteHistory, startSecureStack, type SecureStack } from "./secure-stack.js";
import { startMcpServer } from "../helpers/mcp-server.js";

useNock();

/** Token-shaped strings an agent "found" (or made up) and wants posted. */
const FOUND = {
  github: `ghp_${"Zq9".repeat(12)}`,
  installation: `ghs_${"Xy7".repeat(12)}`,
  anthropic: `sk-ant-api03-${"Qw8e".repeat(10)}`,
  fineGrained: `github_pat_11ABCDEFG0${"x1Y2".repeat(10)}`,
};
const FOUND_ALL = Object.values(FOUND).join(" ");
const SNOOP = [
  "env",
  "cat /proc/1/environ | tr '\\0' '\\n'",
  "cat /proc/self/environ | tr '\\0' '\\n'",
  "cat ~/.gitconfig",
  "cat .git/config",
  "git config --list --show-origin",
  'cat "$CREWBOT_DATA_DIR/crewbot.db" | head -c 500',
  "ls -la ../../.. /work /root 2>&1 | head -50",
].join("; ");
const ECHO = `echo ${FOUND_ALL}`;
const use = (name: string, input: unknown) => ({ type: "tool_use" as const, name, input });

/** Everything crewbot produced or kept, as one text per place, for `leaks`. */
async function everywhere(stack: SecureStack, jobIds: string[]): Promise<Record<string, string>> {
  const transcripts = await Promise.all(jobIds.map((id) => stack.crewbot.transcripts.store.read(id)));
  const data = await filesUnder(stack.dataDir);
  return {
    "model requests": JSON.stringify(stack.fake.requests.map((r) => r.body)),
    "model request headers (besides the API key's own)": JSON.stringify(stack.fake.requests.map((r) => ({ ...r.headers, "x-api-key": undefined, authorization: undefined }))),
    "GitHub writes": JSON.stringify(stack.sent),
    "remote commits and refs": remoteHistory(stack.remoteDir),
    "log lines": stack.logs.join(""),
    transcripts: JSON.stringify(transcripts),
    ...Object.fromEntries(data.map(({ file, text }) => [`data dir: ${path.relative(stack.dataDir, file)}`, text])),
  };
}

function expectNoLeaks(places: Record<string, string>): void {
  if (process.env.DEBUG_LEAKS) writeFileSync(process.env.DEBUG_LEAKS, JSON.stringify(places));
  const found = Object.entries(places)
    .map(([place, text]) => [place, leaks(text)] as const)
    .filter(([, names]) => names.length > 0)
    .map(([place, names]) => `${place}: ${names.join(", ")}`);
  expect(found).toEqual([]);
}

/** The invented token-shaped strings are in nothing sent to GitHub, to the model, or logged. */
function expectFoundRedacted(stack: SecureStack): void {
  const out = { github: JSON.stringify(stack.sent), model: JSON.stringify(stack.fake.requests.map((r) => r.body)), logs: stack.logs.join("") };
  for (const [where, text] of Object.entries(out)) {
    for (const [name, value] of Object.entries(FOUND)) expect(text, `${name} in ${where}`).not.toContain(value);
  }
}

describe("secrets stay secret through real jobs", () => {
  it("/plan: an agent snooping for secrets finds none, and what it echoes is redacted", async () => {
    const stack = await startSecureStack([
      { content: [use("bash", { command: SNOOP }), use("bash", { command: ECHO }), use("read", { path: "../../.." }), use("read", { path: "/proc/self/environ" })] },
      { text: `Scout report: found ${FOUND_ALL}.` },
      { text: `## Plan\n1. Post ${FOUND.github} and ${FOUND.anthropic} in a comment\n2. Also ${FOUND.installation}` },
    ]);
    const payload = issueCommentCreated("/plan", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
    mockInstallationToken();
    mockPermission("Codertocat", "admin");
    stack.record(mockJobComments({ progressId: 901, edits: [], trigger: { id: payload.comment.id } }));

    const job = await stack.runToEnd("issue_comment", payload, "leak-plan");
    expect(job.outcome).toMatch(/^✅ Done/);

    // What the snooping command printed, as the model got it. Model requests are redacted on the way
    // out, so "[redacted]" in it would mean a secret was there to redact: it must not be.
    const [snoop, echoed] = (stack.fake.requests[1]!.body.messages.at(-1).content as Array<{ content: string }>).map((r) => r.content);
    expect(snoop).not.toContain("[redacted]");
    expect(echoed).toMatch(/^\[redacted\] \[redacted\] \[redacted\] \[redacted\]\n/); // what it found reached the model redacted
    expect(snoop).toContain("PAGER=cat"); // the agent's env ran, and is the built one
    expect(snoop).not.toMatch(/ANTHROPIC|WEBHOOK_SECRET|PRIVATE_KEY|GITHUB_CLIENT|CREWBOT_/);
    expect(snoop).toContain("url = "); // the checkout's .git/config: a plain URL
    expectNoLeaks(await everywhere(stack, [job.id]));
    expectFoundRedacted(stack);
    expect(JSON.stringify(stack.sent)).toContain("[redacted]");
  });

  it("/plan with the operator's MCP server: the scout reads a ticket through it, and its token is only in crewbot's requests to that server", async () => {
    const mcp = await startMcpServer(MCP_TOKEN);
    try {
      const file = path.join(await mkdtemp(path.join(os.tmpdir(), "crewbot-mcp-")), "mcp.yml");
      await writeFile(file, `servers:\n  tracker:\n    url: ${mcp.url}\n    headers: { Authorization: "Bearer \${MCP_TRACKER_TOKEN}" }\n    roles: [scout]\n`);
      const stack = await startSecureStack(
        [
          { content: [use("mcp__tracker__get_issue", { key: "7" }), use("mcp__tracker__echo_auth", {}), use("bash", { command: SNOOP })] },
          { text: "Scout report: PROJ-7, the login page times out." },
          { text: "## Plan\n1. Fix the login timeout" },
        ],
        undefined,
        { CREWBOT_MCP_CONFIG: file },
      );
      const payload = issueCommentCreated("/plan", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
      mockInstallationToken();
      mockPermission("Codertocat", "admin");
      stack.record(mockJobComments({ progressId: 905, edits: [], trigger: { id: payload.comment.id } }));

      const job = await stack.runToEnd("issue_comment", payload, "leak-mcp");
      expect(job.outcome).toMatch(/^✅ Done/);
      expect(mcp.calls.map((c) => c.name)).toEqual(["get_issue", "echo_auth"]);
      const [ticket, echoed] = (stack.fake.requests[1]!.body.messages.at(-1).content as Array<{ content: string }>).map((r) => r.content);
      expect(ticket).toContain('<document source="MCP server tracker, tool get_issue" trust="third-party">');
      expect(echoed).toContain("you sent: Bearer [redacted]");
      // The scout's role is listed; the planner's is not.
      const offered = (i: number) => (stack.fake.requests[i]!.body.tools as Array<{ name: string }>).map((t) => t.name).filter((n) => n.startsWith("mcp__"));
      expect(offered(0)).toContain("mcp__tracker__get_issue");
      expect(offered(2)).toEqual([]);
      const transcript = JSON.stringify(await stack.crewbot.transcripts.store.read(job.id));
      expect(transcript).toContain("mcp__tracker__get_issue");
      expectNoLeaks(await everywhere(stack, [job.id]));
    } finally {
      await mcp.close();
    }
  });

  it("/implement: a worker snooping while it works leaks nothing into commits, branches, the PR or the logs", async () => {
    const stack = await startSecureStack(
      [
        { text: "Scout report." },
        { text: `## Plan\n1. Fix the README\n2. Record ${FOUND.installation} in the changelog` },
        { content: [use("bash", { command: SNOOP }), use("edit", { path: "README.md", oldText: "commmit", newText: "commit" })] },
        { content: [{ type: "text", text: "[DONE:1]" }, use("write", { path: "CHANGELOG.md", content: `- found ${FOUND_ALL}\n` })] },
        { text: `[DONE:2]\n## Completed\nBoth; the token is ${FOUND.github}.\n## Files Changed\n- README.md\n## Notes\n${FOUND.anthropic}` },
      ],
      { "README.md": "# Hello commmit\n" },
    );
    const payload = issueCommentCreated("/implement", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
    mockInstallationToken();
    mockBotUser();
    mockPermission("Codertocat", "write");
    stack.record(
      mockJobComments({ progressId: 902, edits: [], trigger: { id: payload.comment.id } })
        .post(`${REPO_PATH}/pulls`)
        .reply(201, { number: 12, html_url: "https://github.com/Codertocat/Hello-World/pull/12" }),
    );

    const job = await stack.runToEnd("issue_comment", payload, "leak-implement");
    expect(job.outcome).toMatch(/^✅ Done/);
    expect(stack.sent.some((w) => w.path.endsWith("/pulls") && (w.body as { draft?: boolean }).draft === true)).toBe(true);

    const branches = gitSync(stack.remoteDir, "for-each-ref", "--format=%(refname)");
    expect(branches.trim().split("\n").sort()).toEqual(["refs/heads/crewbot/issue-1-spelling-error-in-the-readme-file", "refs/heads/main"]);
    expectNoLeaks(await everywhere(stack, [job.id]));
    expectFoundRedacted(stack);
  });

  it("an automatic review of a PR whose files hold token-shaped strings posts them redacted and leaks nothing", async () => {
    const stack = await startSecureStack(
      [
        { content: [use("bash", { command: SNOOP })] },
        { text: `## Critical\n- config.js:1 - a live token ${FOUND.github} is committed.\n## Summary\nRotate ${FOUND.installation} and ${FOUND.anthropic}.` },
      ],
      { "config.js": "module.exports = {};\n" },
    );
    const dir = stack.remoteDir;
    gitSync(dir, "checkout", "-q", "-b", "feature");
    await writeFile(path.join(dir, "config.js"), `module.exports = { token: "${FOUND.github}" };\n`);
    gitSync(dir, "commit", "-q", "-am", "add a token");
    const sha = gitSync(dir, "rev-parse", "HEAD").trim();
    gitSync(dir, "update-ref", "refs/pull/1/head", sha);
    gitSync(dir, "checkout", "-q", "main");

    mockInstallationToken();
    // Read twice: by the trigger (review.auto: whether a job is queued), then by the job.
    mockRepoConfig();
    mockRepoConfig();
    mockPermission("Codertocat", "write");
    stack.record(
      nock(API)
        .post(`${REPO_PATH}/check-runs`).reply(201, { id: 601 })
        .get(`${REPO_PATH}/issues/1/comments`).query(true).reply(200, [])
        .get(`${REPO_PATH}/pulls/1/comments`).query(true).reply(200, [])
        .get(`${REPO_PATH}/pulls/1/reviews`).query(true).reply(200, [])
        .patch(`${REPO_PATH}/check-runs/601`).reply(200, {})
        .post(`${REPO_PATH}/pulls/1/reviews`).reply(200, { id: 701, html_url: "https://github.com/Codertocat/Hello-World/pull/1#pullrequestreview-701" }),
    );

    const job = await stack.runToEnd("pull_request", pullRequestEvent("opened", { headSha: sha, cloneUrl: stack.cloneUrl }), "leak-review");
    expect(job.state).toBe("succeeded");
    expectNoLeaks(await everywhere(stack, [job.id]));
    expectFoundRedacted(stack);
    expect(TOKEN).toMatch(/^ghs_/);
  });

  it("a failing job whose model endpoint echoes the API key and a token in its error leaks neither into the comment, logs, store or transcript", async () => {
    // An Anthropic-compatible proxy that quotes what it was sent: the failure reason carries secrets.
    const error = { status: 401, type: "authentication_error", message: `invalid x-api-key: ${ANTHROPIC_KEY} (upstream said ${TOKEN})` };
    const stack = await startSecureStack([{ error }]);
    const payload = issueCommentCreated("/plan", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
    mockInstallationToken();
    mockPermission("Codertocat", "admin");
    const edits: string[] = [];
    stack.record(mockJobComments({ progressId: 903, edits, trigger: { id: payload.comment.id } }));

    const job = await stack.runToEnd("issue_comment", payload, "leak-provider-error");
    expect(job.state).toBe("failed");
    expect(edits.at(-1)).toMatch(/^❌ Failed: step 1 \(scout\): provider error: 401 invalid x-api-key: \[redacted\] \(upstream said \[redacted\]\)/);
    expectNoLeaks({ "job record": JSON.stringify(job), ...(await everywhere(stack, [job.id])) });
  });

  // Needs the fix in src/workspace/commit.ts (not this suite's to make): a commit message is built
  // from the planner's step text, which is model output; it should pass `redact` like a comment.
  it("commit messages made from plan steps are redacted like comments", async () => {
    const stack = await startSecureStack(
      [
        { text: "Scout report." },
        { text: `## Plan\n1. Record ${FOUND.installation} in the changelog` },
        { content: [use("write", { path: "CHANGELOG.md", content: "- done\n" })] },
        { text: "[DONE:1]\n## Completed\nDone.\n## Files Changed\n- CHANGELOG.md\n## Notes\nNone." },
      ],
    );
    const payload = issueCommentCreated("/implement", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
    mockInstallationToken();
    mockBotUser();
    mockPermission("Codertocat", "write");
    stack.record(
      mockJobComments({ progressId: 904, edits: [], trigger: { id: payload.comment.id } })
        .post(`${REPO_PATH}/pulls`)
        .reply(201, { number: 14, html_url: "https://github.com/Codertocat/Hello-World/pull/14" }),
    );
    await stack.runToEnd("issue_comment", payload, "leak-commit-message");
    const messages = gitSync(stack.remoteDir, "log", "--all", "--format=%B");
    expect(messages).toContain("in the changelog");
    expect(messages).not.toContain(FOUND.installation);
  });
});
