/**
 * Which linked tickets a job reads (mcp/ticket-links.ts finds them; mcp/tickets.ts reads them). The
 * operator's token reads them, and what the agents learn may end up in a public comment: so only a
 * description written by someone who can write to the repository chooses what is read. A stranger's
 * issue or pull request linking a private ticket gets it named, not read.
 */
import { canWrite } from "../github/permission.js";
import { ticketLinks, type TicketLink } from "../mcp/ticket-links.js";
import type { JobRecord } from "../queue/types.js";
import type { JobAccess } from "./job-report.js";
import type { JobServices } from "./services.js";

export interface LinkedTickets {
  jobId: string;
  links: TicketLink[];
}

/** The tickets to read, and the note for the job's comment when links were left unread. */
export async function linkedTickets(job: JobRecord, access: Pick<JobAccess, "octokit">, services: Pick<JobServices, "runtime" | "github">): Promise<{ tickets: LinkedTickets; note?: string }> {
  const links = ticketLinks(job.subject, services.runtime.mcpServers ?? []);
  const author = job.subject?.author ?? "";
  if (links.length === 0) return { tickets: { jobId: job.id, links } };
  const { owner, repo } = job.target;
  const writer = author !== "" && canWrite(await services.github.permissions.get(access.octokit, owner, repo, author));
  if (writer) return { tickets: { jobId: job.id, links } };
  const keys = links.map((l) => l.key).join(", ");
  return { tickets: { jobId: job.id, links: [] }, note: `Linked tickets (${keys}) were not read: the description is by @${author}, who cannot write to this repository.` };
}
