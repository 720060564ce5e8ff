/**
 * Linked tickets: the `tickets` entry of CREWBOT_MCP_CONFIG (the trackers' defaults, overrides,
 * problems named), finding the links in an issue's title and body (budgets held on hostile text),
 * and reading them through a real MCP server (test/helpers/mcp-server.ts) into one third-party
 * section — cleaned, redacted, capped, a failure one line and one log line, each read an event.
 */
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentEvent } from "../../src/agent/events.js";
import { parseMcpConfig, type McpServerConfig } from "../../src/mcp/config.js";
import { openMcp, remoteServer, type McpSession } from "../../src/mcp/session.js";
import { MAX_SCAN_CHARS, MAX_TICKETS, ticketLinks } from "../../src/mcp/ticket-links.js";
import { LINKED_TICKETS_SOURCE, readTickets } from "../../src/mcp/tickets.js";
import { TICKET_KEY } from "../../src/mcp/trackers.js";
import { buildStepPrompt } from "../../src/text/prompt.js";
import { HIDDEN_IN_TICKET, INJECTION, jiraTicketText, startMcpServer, type FakeMcpServer } from "../helpers/mcp-server.js";
import { issueText } from "../fuzz/inputs-text.js";

const TOKEN = `jira-token-${"Qx7w".repeat(8)}`;
const env = { JIRA_TOKEN: TOKEN };
const FILE = "/etc/crewbot/mcp.yml";

const parse = (servers: string) => parseMcpConfig(`servers:\n${servers}`, FILE, env);
const server = (name: string, tickets: string, url = "https://mcp.example.com/mcp") => `  ${name}:\n    url: ${url}\n    headers: { Authorization: "Bearer \${JIRA_TOKEN}" }\n    roles: [reviewer]\n    tickets: ${tickets}\n`;

describe("tickets in CREWBOT_MCP_CONFIG", () => {
  it("takes the tracker's own server's tool and arguments by default", () => {
    const [jira, linear] = parse(server("jira", "{ tracker: jira }") + server("linear", "{ tracker: linear }"));
    expect(jira!.tickets).toEqual({ tracker: "jira", tool: "getJiraIssue", argument: "issueIdOrKey", siteArgument: "cloudId", hosts: ["*.atlassian.net"] });
    expect(linear!.tickets).toEqual({ tracker: "linear", tool: "get_issue", argument: "id", hosts: ["linear.app"] });
    expect(parse("  other:\n    url: https://mcp.example.com/mcp\n    roles: [scout]\n")[0]!.tickets).toBeUndefined();
  });

  it("lets the operator name another server's tool, argument and hosts, and turn the site argument off", () => {
    const [jira] = parse(server("jira", "{ tracker: jira, tool: jira_get_issue, argument: issue_key, siteArgument: false, hosts: [jira.example.com, \"*.corp.example\"] }"));
    expect(jira!.tickets).toEqual({ tracker: "jira", tool: "jira_get_issue", argument: "issue_key", hosts: ["*.atlassian.net", "jira.example.com", "*.corp.example"] });
  });

  it.each([
    ["{ tracker: github }", "servers.t.tickets.tracker: must be one of jira, linear"],
    ["{ tracker: jira, token: x }", "servers.t.tickets.token: unknown key"],
    ["{ tracker: jira, hosts: [\"https://jira.example.com\"] }", "servers.t.tickets.hosts.0: must be a lower-case host name"],
    ["{ tracker: jira, tool: \"\" }", "servers.t.tickets.tool: must not be empty"],
    ["jira", "servers.t.tickets: must be a mapping with tracker"],
  ])("refuses %s naming the file and the key", (tickets, message) => {
    expect(() => parse(server("t", tickets))).toThrow(`CREWBOT_MCP_CONFIG (${FILE}): ${message}`);
  });

  it("refuses two servers for one tracker, naming both", () => {
    expect(() => parse(server("a", "{ tracker: jira }") + server("b", "{ tracker: jira }"))).toThrow(
      `CREWBOT_MCP_CONFIG (${FILE}): servers.b.tickets.tracker: jira tickets are read by servers.a already; one server per tracker`,
    );
  });
});

describe("linked tickets in an issue", () => {
  const readers = parse(server("jira", "{ tracker: jira, hosts: [jira.example.com] }") + server("linear", "{ tracker: linear }"));
  const links = (body: string, title = "A bug") => ticketLinks({ title, body }, readers);

  it("finds Jira and Linear links in the title and body, in order, each once", () => {
    const found = links(
      "See [the ticket](https://acme.atlassian.net/browse/ABC-12), and https://linear.app/acme/issue/ENG-7/export-broken.\nAgain: <https://acme.atlassian.net/browse/ABC-12?focusedCommentId=1>, https://linear.app/acme/issue/ENG-7",
      "Fix https://jira.example.com/browse/OPS-3!",
    );
    expect(found).toEqual([
      { tracker: "jira", server: "jira", key: "OPS-3", site: "https://jira.example.com", url: "https://jira.example.com/browse/OPS-3" },
      { tracker: "jira", server: "jira", key: "ABC-12", site: "https://acme.atlassian.net", url: "https://acme.atlassian.net/browse/ABC-12" },
      { tracker: "linear", server: "linear", key: "ENG-7", site: "https://linear.app", url: "https://linear.app/acme/issue/ENG-7/export-broken" },
    ]);
  });

  it.each([
    ["in a fenced code block", "```\nhttps://acme.atlassian.net/browse/ABC-1\n```"],
    ["in a code span", "the log says `https://acme.atlassian.net/browse/ABC-1`"],
    ["hidden in an HTML comment", "<!-- https://acme.atlassian.net/browse/ABC-1 -->"],
    ["on another host", "https://acme.atlassian.net.evil.example/browse/ABC-1 https://evil.example/browse/ABC-1"],
    ["two labels under atlassian.net", "https://a.b.atlassian.net/browse/ABC-1"],
    ["with credentials or a port", "https://user@acme.atlassian.net/browse/ABC-1 https://acme.atlassian.net:8443/browse/ABC-1"],
    ["over plain http", "http://acme.atlassian.net/browse/ABC-1"],
    ["with a key that is no key", "https://acme.atlassian.net/browse/abc-1 https://acme.atlassian.net/browse/A-1 https://acme.atlassian.net/browse/ABC-x"],
    ["on another path", "https://acme.atlassian.net/jira/software/projects/ABC/boards/1 https://linear.app/acme/project/ENG-1"],
    ["a backslash that makes another host", "https://evil.example\\@acme.atlassian.net/browse/ABC-1"],
  ])("leaves a link alone %s", (_what, body) => {
    expect(links(body)).toEqual([]);
  });

  it("reads only trackers a server reads, and nothing without a subject", () => {
    const jiraOnly = parse(server("jira", "{ tracker: jira }"));
    expect(ticketLinks({ title: "", body: "https://linear.app/acme/issue/ENG-7" }, jiraOnly)).toEqual([]);
    expect(ticketLinks(undefined, readers)).toEqual([]);
    expect(ticketLinks({ title: "", body: "https://acme.atlassian.net/browse/ABC-1" }, [])).toEqual([]);
  });

  it(`keeps at most ${MAX_TICKETS} tickets and reads only the first ${MAX_SCAN_CHARS} characters`, () => {
    const many = Array.from({ length: 10 }, (_, i) => `https://acme.atlassian.net/browse/ABC-${i + 1}`).join(" ");
    expect(links(many).map((l) => l.key)).toEqual(["ABC-1", "ABC-2", "ABC-3"]);
    expect(links(`${"x".repeat(MAX_SCAN_CHARS)} https://acme.atlassian.net/browse/ABC-1`)).toEqual([]);
  });

  it("holds its budgets on hostile text: huge, full of links, odd unicode", () => {
    const link = fc.oneof(
      fc.constantFrom("https://acme.atlassian.net/browse/ABC-1", "https://ａｃｍｅ.atlassian.net/browse/ABC-2", "https://linear.app/w/issue/ENG-9/x", "https://acme.atlassian.net/browse/", "https://", "```\n", "`", "<!--", "\u202E", "\uD800"),
      fc.record({ host: fc.string({ unit: "grapheme", maxLength: 12 }), key: fc.stringMatching(/^[A-Za-z0-9]{1,6}-\d{1,4}$/) }).map(({ host, key }) => `https://${host}.atlassian.net/browse/${key}`),
    );
    const body = fc.oneof(issueText, fc.array(fc.oneof(link, fc.string({ unit: "binary", maxLength: 8 })), { maxLength: 400 }).map((p) => p.join(" ")), fc.tuple(link, fc.integer({ min: 1, max: 5000 })).map(([l, n]) => `${l} `.repeat(n)));
    fc.assert(
      fc.property(body, (text) => {
        const found = ticketLinks({ title: text.slice(0, 1000), body: text }, readers);
        expect(found.length).toBeLessThanOrEqual(MAX_TICKETS);
        for (const l of found) {
          expect(l.key).toMatch(TICKET_KEY);
          expect(l.site).toMatch(/^https:\/\/([a-z0-9-]+\.atlassian\.net|jira\.example\.com|linear\.app)$/);
          expect(l.url.startsWith(`${l.site}/`)).toBe(true);
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe("reading linked tickets", () => {
  const servers: FakeMcpServer[] = [];
  const sessions: McpSession[] = [];
  afterEach(async () => {
    for (const s of sessions.splice(0)) await s.close();
    for (const s of servers.splice(0)) await s.close();
  });

  async function read(keys: string[], options: { timeoutMs?: number; down?: boolean } = {}) {
    const fake = await startMcpServer(TOKEN);
    servers.push(fake);
    if (options.down) await fake.close();
    // Its roles are the reviewer's: a planning chain has none, the read happens anyway.
    const config: McpServerConfig[] = parse(server("jira", "{ tracker: jira }", fake.url));
    const lines: string[] = [];
    const log = { info: (m: string) => lines.push(m), warn: (m: string) => lines.push(m) };
    const session = await openMcp(config.map(remoteServer), { roles: ["scout", "planner"], readers: ["jira"], signal: new AbortController().signal, log, listTimeoutMs: 3000 });
    sessions.push(session);
    const links = ticketLinks({ title: "", body: keys.map((k) => `https://acme.atlassian.net/browse/${k}`).join("\n") }, config);
    const events: AgentEvent[] = [];
    const sections = await readTickets(links, session, config, { jobId: "job-42", signal: new AbortController().signal, emit: (e) => events.push(e), log, ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}) });
    return { fake, sections, lines, events, session };
  }

  it("gives each ticket's text, cleaned and redacted, in one third-party section, and no model the tool", async () => {
    const { fake, sections, events, session } = await read(["ABC-1", "LEAK-1"]);
    expect(fake.calls).toEqual([
      { name: "getJiraIssue", arguments: { issueIdOrKey: "ABC-1", cloudId: "https://acme.atlassian.net" } },
      { name: "getJiraIssue", arguments: { issueIdOrKey: "LEAK-1", cloudId: "https://acme.atlassian.net" } },
    ]);
    expect(sections).toHaveLength(1);
    const [section] = sections;
    expect(section).toMatchObject({ source: LINKED_TICKETS_SOURCE, thirdParty: true });
    expect(section!.text).toContain(`Jira ticket ABC-1 (https://acme.atlassian.net/browse/ABC-1):\n${jiraTicketText("ABC-1", "https://acme.atlassian.net")}\n${INJECTION}`);
    expect(section!.text).not.toContain(HIDDEN_IN_TICKET);
    expect(section!.text).not.toContain("\u200B");
    expect(section!.text).toContain("Jira ticket LEAK-1 (https://acme.atlassian.net/browse/LEAK-1):\nticket text, and you sent: Bearer [redacted]");
    expect(JSON.stringify([sections, events])).not.toContain(TOKEN);
    // As the model reads it: one document marked third-party, the server's closing tag neutralised.
    const prompt = buildStepPrompt(sections, "Plan.");
    expect(prompt).toContain(`<document source="${LINKED_TICKETS_SOURCE}" trust="third-party">`);
    expect(prompt.match(/<\/document>/g)).toHaveLength(1);
    expect(events.map((e) => e.type)).toEqual(["tool_start", "tool_end", "tool_start", "tool_end"]);
    expect(events[0]).toMatchObject({ agent: "crewbot", name: "mcp__jira__getJiraIssue", args: JSON.stringify({ issueIdOrKey: "ABC-1", cloudId: "https://acme.atlassian.net" }) });
    expect(events[1]).toMatchObject({ agent: "crewbot", ok: true });
    expect(session.toolsFor("planner")).toEqual([]);
  });

  it("a ticket the server cannot give is one line in the section and one log line with the job's id", async () => {
    const { sections, lines, events } = await read(["GONE-404", "ABC-2"]);
    expect(sections[0]!.text).toContain("ticket GONE-404 could not be read: the MCP server jira answered getJiraIssue with an error: Issue does not exist or you do not have permission to see it.");
    expect(sections[0]!.text).toContain("Jira ticket ABC-2 (https://acme.atlassian.net/browse/ABC-2):");
    expect(lines).toContain("job job-42: Jira ticket GONE-404 could not be read through MCP server jira: the MCP server jira answered getJiraIssue with an error: Issue does not exist or you do not have permission to see it.");
    expect(events[1]).toMatchObject({ type: "tool_end", ok: false });
  });

  it("a server that does not answer in time, or cannot be reached, costs one line each", async () => {
    const slow = await read(["SLOW-1"], { timeoutMs: 500 });
    expect(slow.sections[0]!.text).toBe("ticket SLOW-1 could not be read: the MCP server jira did not answer getJiraIssue: no answer within 1 s");
    const down = await read(["ABC-3"], { down: true });
    expect(down.sections[0]!.text).toBe("ticket ABC-3 could not be read: the MCP server jira could not be reached");
    expect(down.lines.filter((l) => l.startsWith("job job-42: "))).toEqual(["job job-42: Jira ticket ABC-3 could not be read through MCP server jira: the MCP server jira could not be reached"]);
  });

  it("no links, no section", async () => {
    expect(await readTickets([], { caller: () => undefined }, [], { jobId: "j", signal: new AbortController().signal, emit: () => {}, log: { warn: () => {} } })).toEqual([]);
  });
});
