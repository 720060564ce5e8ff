/**
 * Who may see a job: someone GitHub lets read its repository, or anyone when the job was made
 * public. Anyone else is told there is no such job (404).
 */
import type { JobRecord } from "../queue/types.js";
import type { Session } from "./session.js";
import { HttpError, type WebContext } from "./web-context.js";

/** The job as this visitor may see it: through their session, or as a public job without one. */
export async function visibleJob(ctx: WebContext, session: Session | undefined, id: string): Promise<JobRecord | undefined> {
  return session ? await readableJob(ctx, session, id) : await publicJob(ctx, id);
}

/** The job, when this session may read its repository; 404 otherwise (also for no such job). */
async function readableJob(ctx: WebContext, session: Session, id: string): Promise<JobRecord> {
  const job = await ctx.options.queue.get(id);
  if (!job || !(await canRead(ctx, session, job.target.owner, job.target.repo))) throw new HttpError(404, "Not found");
  return job;
}

/**
 * A job anyone may see without signing in: its repository was public when the job ran, its
 * config said `transcripts.public`, and GitHub still shows the repository to anyone now.
 */
async function publicJob(ctx: WebContext, id: string): Promise<JobRecord | undefined> {
  const job = await ctx.options.queue.get(id);
  if (!job || job.repo.private) return undefined;
  const entries = await ctx.options.store.read(job.id);
  if (!entries.some((e) => e.type === "visibility" && e.public)) return undefined;
  const open = await ctx.github.isPublic(job.target.owner, job.target.repo).catch(() => false);
  return open ? job : undefined;
}

/** Whether GitHub lets this session read the repository; 502 when GitHub does not answer. */
export async function canRead(ctx: WebContext, session: Session, owner: string, repo: string): Promise<boolean> {
  try {
    return (await ctx.github.canRead(session, session.token, owner, repo)).read;
  } catch (err) {
    throw new HttpError(502, `Could not ask GitHub who may read ${owner}/${repo}: ${ctx.clean((err as Error).message)}`);
  }
}
