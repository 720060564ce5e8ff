/**
 * Linked tickets read into a job's context: before the agents start, crewbot itself calls each
 * ticket's server (its `tickets` tool, through the job's MCP session; no model asks for it, so the
 * server's roles and allow-list do not apply) under a time limit. What comes back is a stranger's
 * text like the issue's: cleaned of hidden text, redacted, capped, and given in one third-party
 * section, "Linked tickets". A ticket that cannot be read is one line there and one log line with
 * the job's id, never the job's failure. Each read is a tool call of "crewbot" in the transcript.
 */
import type { AgentEvent } from "../agent/events.js";
import { redact } from "../secrets/redact.js";
import { capMiddle } from "../text/cap-middle.js";
import { cleanText } from "../text/clean-text.js";
import type { ContextSection } from "../text/prompt.js";
import type { McpServerConfig } from "./config.js";
import { mcpToolName } from "./names.js";
import type { McpSession } from "./session.js";
import type { TicketLink } from "./ticket-links.js";
import { callError, contentText, MCP_CALL_TIMEOUT_MS, MCP_RESULT_MAX_CHARS } from "./tool.js";
import { TRACKERS } from "./trackers.js";

export const LINKED_TICKETS_SOURCE = "Linked tickets (read by crewbot through the operator's MCP servers)";
/** Who the transcript says made the read. */
const READER = "crewbot";
const MAX_PROBLEM_CHARS = 300;

export interface ReadTicketsOptions {
  jobId: string;
  signal: AbortSignal;
  /** The job's events (the transcript). */
  emit(event: AgentEvent): void;
  log: { warn(message: string): void };
  /** The operator's secrets; each server's own are added. */
  secrets?: readonly string[];
  timeoutMs?: number;
}

type Read = { ok: true; text: string } | { ok: false; problem: string };

/** The "Linked tickets" section for `links` (none: no section), read one after another. */
export async function readTickets(links: readonly TicketLink[], session: Pick<McpSession, "caller">, servers: readonly McpServerConfig[], options: ReadTicketsOptions): Promise<ContextSection[]> {
  if (links.length === 0) return [];
  const parts: string[] = [];
  for (const [index, link] of links.entries()) {
    const server = servers.find((s) => s.name === link.server);
    const secrets = [...(options.secrets ?? []), ...(server?.secrets ?? [])];
    const read = server?.tickets ? await readOne(link, server, session, options, index, secrets) : { ok: false as const, problem: `no MCP server ${link.server} reads ${link.tracker} tickets` };
    const label = TRACKERS[link.tracker].label;
    if (read.ok) {
      parts.push(`${label} ticket ${link.key} (${link.url}):\n${read.text}`);
      continue;
    }
    parts.push(`ticket ${link.key} could not be read: ${read.problem}`);
    options.log.warn(redact(`job ${options.jobId}: ${label} ticket ${link.key} could not be read through MCP server ${link.server}: ${read.problem}`, secrets));
  }
  return [{ source: LINKED_TICKETS_SOURCE, text: parts.join("\n\n"), thirdParty: true }];
}

async function readOne(link: TicketLink, server: McpServerConfig, session: Pick<McpSession, "caller">, options: ReadTicketsOptions, index: number, secrets: string[]): Promise<Read> {
  const reader = server.tickets!;
  const args = { [reader.argument]: link.key, ...(reader.siteArgument ? { [reader.siteArgument]: link.site } : {}) };
  const event = { agent: READER, id: `ticket-${index + 1}`, name: mcpToolName(server.name, reader.tool) };
  options.emit({ type: "tool_start", ...event, args: JSON.stringify(args) });
  const started = performance.now();
  const read = await call(link, server, session, options, args, secrets);
  const output = read.ok ? read.text : read.problem;
  options.emit({ type: "tool_end", ...event, ok: read.ok, ms: Math.round(performance.now() - started), output });
  return read;
}

async function call(link: TicketLink, server: McpServerConfig, session: Pick<McpSession, "caller">, options: ReadTicketsOptions, args: Record<string, string>, secrets: string[]): Promise<Read> {
  const caller = session.caller(server.name);
  if (!caller) return { ok: false, problem: `the MCP server ${server.name} could not be reached` };
  const timeoutMs = options.timeoutMs ?? MCP_CALL_TIMEOUT_MS;
  const tool = server.tickets!.tool;
  try {
    const result = await caller.call(tool, args, { signal: options.signal, timeoutMs });
    // Cleaned before redaction: a hidden character inside a secret must not save it from redaction.
    const text = redact(cleanText(contentText(result.content)), secrets).trim();
    if (result.isError === true) return { ok: false, problem: `the MCP server ${server.name} answered ${tool} with an error: ${oneLine(text)}` };
    if (!text || text === "(no content)") return { ok: false, problem: `the MCP server ${server.name} answered ${tool} with nothing for ${link.key}` };
    return { ok: true, text: capMiddle(text, MCP_RESULT_MAX_CHARS, "of the ticket") };
  } catch (err) {
    return { ok: false, problem: redact(`the MCP server ${server.name} did not answer ${tool}: ${callError(err, timeoutMs)}`, secrets) };
  }
}

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim().slice(0, MAX_PROBLEM_CHARS);
