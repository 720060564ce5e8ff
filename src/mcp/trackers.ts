/**
 * The ticket trackers whose linked tickets crewbot reads into a job's context, one row each: how a
 * link to a ticket looks, and how the tracker's own remote MCP server reads one (its tool and the
 * arguments it takes). A server's `tickets` entry in `CREWBOT_MCP_CONFIG` names its tracker and may
 * override the tool and argument names (another server than the tracker's own) and add hosts.
 *
 *   tickets: { tracker: jira, tool: jira_get_issue, argument: issue_key, siteArgument: false, hosts: [jira.example.com] }
 */
import { z } from "zod";

export interface TrackerRow {
  label: string;
  /** The tool of the tracker's own remote server that reads one ticket. */
  tool: string;
  /** Its argument for the ticket's key. */
  argument: string;
  /** Its argument for the site the link points at (`https://<site>`), when it takes one. */
  siteArgument?: string;
  /** Hosts whose links are the tracker's: a name, or `*.` and one label before it. */
  hosts: readonly string[];
  /** A ticket's path on those hosts; its first group is the key. */
  path: RegExp;
}

/** A ticket's key: a project's letters and digits, a dash, a number (Jira's and Linear's alike). */
export const TICKET_KEY = /^[A-Z][A-Z0-9]{1,19}-\d{1,9}$/;
const KEY = "([A-Z][A-Z0-9]{1,19}-\\d{1,9})";

export const TRACKERS = {
  // Atlassian's remote server (mcp.atlassian.com): getJiraIssue(cloudId, issueIdOrKey); its cloudId takes a site URL too.
  jira: { label: "Jira", tool: "getJiraIssue", argument: "issueIdOrKey", siteArgument: "cloudId", hosts: ["*.atlassian.net"], path: new RegExp(`^/browse/${KEY}/?$`) },
  // Linear's remote server (mcp.linear.app): get_issue(id), the id being the key; links are /<workspace>/issue/<key>/<slug>.
  linear: { label: "Linear", tool: "get_issue", argument: "id", hosts: ["linear.app"], path: new RegExp(`^/[A-Za-z0-9_-]{1,64}/issue/${KEY}(?:/[^/]*)?/?$`) },
} as const satisfies Record<string, TrackerRow>;

export type TrackerName = keyof typeof TRACKERS;
export const TRACKER_NAMES = Object.keys(TRACKERS) as [TrackerName, ...TrackerName[]];

/** A host name as written in `hosts`: lower-case labels, optionally `*.` before them. */
const HOST = /^(\*\.)?[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;
const NAME = z.string().trim().min(1, { error: "must not be empty" }).max(100, { error: "must be at most 100 characters" });

/** `servers.<name>.tickets` of `CREWBOT_MCP_CONFIG`. */
export const TicketsEntry = z.strictObject(
  {
    tracker: z.enum(TRACKER_NAMES, { error: `must be one of ${TRACKER_NAMES.join(", ")}` }),
    tool: NAME.optional(),
    argument: NAME.optional(),
    siteArgument: z.union([NAME, z.literal(false)], { error: "must be an argument's name, or false" }).optional(),
    hosts: z.array(z.string().regex(HOST, { error: "must be a lower-case host name, or *. and one" })).max(20, { error: "at most 20 hosts" }).optional(),
  },
  { error: `must be a mapping with tracker (${TRACKER_NAMES.join(", ")}) and optionally tool, argument, siteArgument, hosts` },
);

/** How one server reads its tracker's tickets: the row's defaults with the operator's overrides. */
export interface TicketReader {
  tracker: TrackerName;
  tool: string;
  argument: string;
  siteArgument?: string;
  hosts: string[];
}

export function ticketReader(entry: z.infer<typeof TicketsEntry>): TicketReader {
  const row: TrackerRow = TRACKERS[entry.tracker];
  const site = entry.siteArgument === undefined ? row.siteArgument : entry.siteArgument || undefined;
  return {
    tracker: entry.tracker,
    tool: entry.tool ?? row.tool,
    argument: entry.argument ?? row.argument,
    ...(site ? { siteArgument: site } : {}),
    hosts: [...new Set([...row.hosts, ...(entry.hosts ?? [])])],
  };
}

/** The servers that read tickets, one per tracker: a second is a problem naming both (a link would have two readers). */
export function secondReader(servers: ReadonlyArray<{ name: string; tickets?: TicketReader }>): string | undefined {
  const first = new Map<TrackerName, string>();
  for (const server of servers) {
    if (!server.tickets) continue;
    const earlier = first.get(server.tickets.tracker);
    if (earlier) return `servers.${server.name}.tickets.tracker: ${server.tickets.tracker} tickets are read by servers.${earlier} already; one server per tracker`;
    first.set(server.tickets.tracker, server.name);
  }
  return undefined;
}

/** Whether `host` (lower-case, as URL gives it) is one of `hosts`; `*.x` stands for one label before x. */
export function hostMatches(host: string, hosts: readonly string[]): boolean {
  return hosts.some((pattern) => {
    if (!pattern.startsWith("*.")) return host === pattern;
    const suffix = pattern.slice(1);
    return host.endsWith(suffix) && /^[a-z0-9-]+$/.test(host.slice(0, -suffix.length));
  });
}
