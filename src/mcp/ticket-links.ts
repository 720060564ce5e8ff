/**
 * The tickets an issue or pull request links to: read from its title and body as they were when the
 * command was written (a later edit is not the request's), the text people see only (hidden text
 * cleaned away first, links in code blocks and code spans left alone: those are examples and logs,
 * not references), and only links to a tracker some operator server reads. Budgets: the first
 * MAX_SCAN_CHARS of the text, at most MAX_URLS links looked at, at most MAX_TICKETS tickets kept.
 */
import type { JobSubject } from "../queue/types.js";
import { cleanText } from "../text/clean-text.js";
import { scanFences, withoutInlineCode } from "../text/markdown.js";
import { hostMatches, TICKET_KEY, TRACKERS, type TicketReader, type TrackerName } from "./trackers.js";

export const MAX_TICKETS = 3;
/** Of the title and body: a ticket linked further down is not what the request is about. */
export const MAX_SCAN_CHARS = 20_000;
/** Links looked at, tickets or not. */
export const MAX_URLS = 200;
const MAX_URL_CHARS = 500;

/** Characters that end a link in running text (markdown's brackets and quotes among them). */
const LINK = /https:\/\/[^\s<>()[\]{}"'`|\\]{1,500}/g;
const TRAILING = /[.,;:!?*_~]+$/;

export interface TicketLink {
  tracker: TrackerName;
  /** The server that reads it. */
  server: string;
  key: string;
  /** `https://<host>`: the site the link points at. */
  site: string;
  /** The link as crewbot rebuilt it from its parts (no query, no fragment). */
  url: string;
}

/** The distinct tickets linked, in the order they first appear, at most MAX_TICKETS. */
export function ticketLinks(subject: Pick<JobSubject, "title" | "body"> | undefined, readers: ReadonlyArray<{ name: string; tickets?: TicketReader }>): TicketLink[] {
  const reading = readers.filter((r): r is { name: string; tickets: TicketReader } => r.tickets !== undefined);
  if (!subject || reading.length === 0) return [];
  const text = cleanText(`${subject.title}\n\n${subject.body}`.slice(0, MAX_SCAN_CHARS));
  const found = new Map<string, TicketLink>();
  let looked = 0;
  for (const line of scanFences(text)) {
    if (line.fenceIndent !== null) continue;
    for (const match of withoutInlineCode(line.text).matchAll(LINK)) {
      if (++looked > MAX_URLS) return [...found.values()];
      const link = ticketOf(match[0].replace(TRAILING, ""), reading);
      if (link && !found.has(sameTicket(link))) found.set(sameTicket(link), link);
      if (found.size >= MAX_TICKETS) return [...found.values()];
    }
  }
  return [...found.values()];
}

/** Two links to one ticket (Linear's slug may differ) are one. */
const sameTicket = (link: TicketLink) => `${link.server} ${link.site} ${link.key}`;

function ticketOf(written: string, readers: ReadonlyArray<{ name: string; tickets: TicketReader }>): TicketLink | undefined {
  if (written.length > MAX_URL_CHARS) return undefined;
  let url: URL;
  try {
    url = new URL(written);
  } catch {
    return undefined;
  }
  // No credentials or port in a link crewbot follows: the site is a plain https origin.
  if (url.protocol !== "https:" || url.username || url.password || url.port) return undefined;
  for (const { name, tickets } of readers) {
    if (!hostMatches(url.hostname, tickets.hosts)) continue;
    const key = TRACKERS[tickets.tracker].path.exec(url.pathname)?.[1];
    if (!key || !TICKET_KEY.test(key)) continue;
    const site = `https://${url.hostname}`;
    return { tracker: tickets.tracker, server: name, key, site, url: `${site}${url.pathname}` };
  }
  return undefined;
}
