/**
 * A linked Jira ticket in the whole app: an issue whose body links one, the operator's server for
 * Jira named in CREWBOT_MCP_CONFIG, and /plan — the model's first request holds the ticket's text
 * as third-party data, the server's token is in no request, comment or transcript; a server that
 * fails leaves the job done and one line in the context saying the ticket could not be read. And a
 * Linear ticket linked in a pull request's description reaches an /ask there the same way.
 */
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { LINKED_TICKETS_SOURCE } from "../../src/mcp/tickets.js";
import { issueCommentCreated } from "../fixtures/payloads.js";
import { gitSync } from "../helpers/git-repo.js";
import { useNock } from "../helpers/github.js";
import { API, mockInstallationToken, mockJobComments, mockPermission, REPO_PATH, startStack } from "../app/harness.js";
import { commitOnFeature } from "../app/review-harness.js";
import { HIDDEN_IN_TICKET, INJECTION, jiraTicketText, startMcpServer, type FakeMcpServer } from "../helpers/mcp-server.js";

useNock();

const TOKEN = `atlassian-token-${"Zr4p".repeat(8)}`;
const servers: FakeMcpServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function mcpConfig(text: string): Promise<string> {
  const file = path.join(await mkdtemp(path.join(os.tmpdir(), "crewbot-tickets-")), "mcp.yml");
  await writeFile(file, text);
  return file;
}

async function planWithTicket(options: { down?: boolean; deliveryId: string; issueBy?: string }) {
  const fake = await startMcpServer(TOKEN);
  servers.push(fake);
  if (options.down) await fake.close();
  // The server's tools go to the reviewer only: the ticket is read for a /plan all the same.
  const file = await mcpConfig(`servers:\n  jira:\n    url: ${fake.url}\n    headers: { Authorization: "Bearer \${ATLASSIAN_TOKEN}" }\n    roles: [reviewer]\n    tickets: { tracker: jira }\n`);
  const stack = await startStack([{ text: "Scout report." }, { text: "## Plan\n1. Fix the README" }], { env: { CREWBOT_MCP_CONFIG: file, ATLASSIAN_TOKEN: TOKEN } });
  const payload = issueCommentCreated("/plan", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
  payload.issue.body = "The export button is broken, see https://acme.atlassian.net/browse/WEB-42.\n\n```\nhttps://acme.atlassian.net/browse/LOG-1\n```";
  mockInstallationToken();
  mockPermission(payload.comment.user.login, "admin");
  if (options.issueBy) {
    payload.issue.user = { ...payload.issue.user, login: options.issueBy };
    mockPermission(options.issueBy, "read");
  }
  const edits: string[] = [];
  mockJobComments({ progressId: 932, edits, trigger: { id: payload.comment.id } });
  const job = await stack.runToEnd("issue_comment", payload, options.deliveryId);
  const transcript = JSON.stringify(await stack.crewbot.transcripts.store.read(job.id));
  return { fake, stack, job, edits, transcript, first: JSON.stringify(stack.fake.requests[0]!.body) };
}

/** The text of the first user message the model got. */
function firstPrompt(body: Record<string, unknown>): string {
  const [message] = body.messages as Array<{ content: string | Array<{ type: string; text?: string }> }>;
  const content = message!.content;
  return typeof content === "string" ? content : content.map((block) => block.text ?? "").join("");
}

describe("a linked ticket in a /plan", () => {
  it("reaches the model as third-party data, read through the operator's server, its token nowhere", async () => {
    const { fake, stack, job, edits, transcript, first } = await planWithTicket({ deliveryId: "ticket-read" });
    expect(job.outcome).toMatch(/^✅ Done/);
    // Only the link outside the code block is read, with the site it points at.
    expect(fake.calls).toEqual([{ name: "getJiraIssue", arguments: { issueIdOrKey: "WEB-42", cloudId: "https://acme.atlassian.net" } }]);
    const prompt = firstPrompt(stack.fake.requests[0]!.body);
    const section = prompt.slice(prompt.indexOf(`<document source="${LINKED_TICKETS_SOURCE}" trust="third-party">`));
    expect(section).toContain(`Jira ticket WEB-42 (https://acme.atlassian.net/browse/WEB-42):\n${jiraTicketText("WEB-42", "https://acme.atlassian.net")}\n${INJECTION}`);
    expect(prompt.indexOf("<context>")).toBeLessThan(prompt.indexOf(LINKED_TICKETS_SOURCE));
    expect(prompt.indexOf(LINKED_TICKETS_SOURCE)).toBeLessThan(prompt.indexOf("</context>"));
    expect(prompt).not.toContain(HIDDEN_IN_TICKET);
    // The model is offered no tool of a server whose roles the chain does not have.
    expect(first).not.toContain("mcp__jira__");
    for (const text of [JSON.stringify(stack.fake.requests.map((r) => r.body)), ...edits, transcript]) expect(text).not.toContain(TOKEN);
    // The read is crewbot's tool call in the transcript.
    expect(transcript).toContain('"type":"tool_start","agent":"crewbot","id":"ticket-1","name":"mcp__jira__getJiraIssue"');
  });

  it("a server that fails leaves the job done, and the context says the ticket could not be read", async () => {
    const { job, stack, transcript } = await planWithTicket({ down: true, deliveryId: "ticket-down" });
    expect(job.outcome).toMatch(/^✅ Done/);
    const prompt = firstPrompt(stack.fake.requests[0]!.body);
    expect(prompt).toContain(`<document source="${LINKED_TICKETS_SOURCE}" trust="third-party">\nticket WEB-42 could not be read: the MCP server jira could not be reached\n</document>`);
    expect(transcript).toContain('"name":"mcp__jira__getJiraIssue","ok":false');
  });
});

describe("a linked ticket in a stranger's description", () => {
  it("is named, not read: the operator's token reads only what a writer linked", async () => {
    const { fake, stack, job, edits } = await planWithTicket({ deliveryId: "ticket-stranger", issueBy: "mallory" });
    expect(job.outcome).toMatch(/^✅ Done/);
    expect(fake.calls).toEqual([]);
    const note = "Linked tickets (WEB-42) were not read: the description is by @mallory, who cannot write to this repository.";
    // In the comment the name is no mention (no ping): GitHub's markdown gets `@\u200B`.
    expect(edits.at(-1)).toContain(`**Notes**\n- ${note.replace("@mallory", "@\u200Bmallory")}`);
    const prompt = firstPrompt(stack.fake.requests[0]!.body);
    expect(prompt).not.toContain(LINKED_TICKETS_SOURCE);
    expect(prompt).toContain(note);
  });
});

describe("a linked ticket in an /ask on a pull request", () => {
  it("a Linear ticket in the description reaches the answerer through a server whose argument the operator named", async () => {
    const fake = await startMcpServer(TOKEN);
    servers.push(fake);
    // The helper's get_issue takes `key`, where Linear's own server takes `id`.
    const file = await mcpConfig(`servers:\n  linear:\n    url: ${fake.url}\n    headers: { Authorization: "Bearer \${LINEAR_TOKEN}" }\n    roles: [scout]\n    tickets: { tracker: linear, argument: key }\n`);
    const stack = await startStack([{ text: "It asks for a faster login." }], { env: { CREWBOT_MCP_CONFIG: file, LINEAR_TOKEN: TOKEN } });
    gitSync(stack.remoteDir, "branch", "feature");
    const head = await commitOnFeature(stack, async (dir) => {
      await mkdir(path.join(dir, "src"), { recursive: true });
      await writeFile(path.join(dir, "src", "login.ts"), "export const timeoutMs = 5000;\n");
    }, "shorter login timeout");
    const payload = issueCommentCreated("/ask what does the linked ticket ask for?", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
    payload.issue.pull_request = { url: `${API}${REPO_PATH}/pulls/1` };
    payload.issue.body = "Closes https://linear.app/acme/issue/ENG-7/login-times-out";
    mockInstallationToken();
    mockPermission(payload.issue.user.login, "write");
    const edits: string[] = [];
    mockJobComments({ progressId: 933, edits, trigger: { id: payload.comment.id }, pull: {} })
      .get(`${REPO_PATH}/pulls/1`)
      .reply(200, { number: 1, head: { sha: head, ref: "feature", repo: { full_name: "Codertocat/Hello-World" } }, base: { ref: "main", sha: "0".repeat(40) } });
    const job = await stack.runToEnd("issue_comment", payload, "ticket-ask-pr");
    expect(job, job.outcome).toMatchObject({ state: "succeeded", kind: "ask" });
    expect(fake.calls).toEqual([{ name: "get_issue", arguments: { key: "ENG-7" } }]);
    const prompt = firstPrompt(stack.fake.requests[0]!.body);
    expect(prompt).toContain(`<document source="${LINKED_TICKETS_SOURCE}" trust="third-party">\nLinear ticket ENG-7 (https://linear.app/acme/issue/ENG-7/login-times-out):\nPROJ-ENG-7: the login page times out.`);
    expect(JSON.stringify(stack.fake.requests.map((r) => r.body))).not.toContain(TOKEN);
  });
});
