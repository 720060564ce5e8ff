/**
 * `/jobs/<id>/events`: the live page's server-sent events. Each new transcript entry becomes the
 * page ops the timeline makes of it; the stream ends with the job.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { sessionOf } from "./auth-routes.js";
import { visibleJob } from "./job-access.js";
import { artifactBaseOf, headOf } from "./job-pages.js";
import { Timeline } from "./timeline.js";
import { HttpError, type WebContext } from "./web-context.js";

const ENDED = new Set(["succeeded", "failed", "cancelled"]);
const KEEP_ALIVE_MS = 15_000;

export async function events(ctx: WebContext, req: IncomingMessage, url: URL, res: ServerResponse, id: string): Promise<true> {
  const { options, now } = ctx;
  const visible = await visibleJob(ctx, sessionOf(ctx, req), id);
  if (!visible) throw new HttpError(401, "Sign in first.");
  let job = visible;
  const after = Math.max(Number(url.searchParams.get("after")) || 0, Number(req.headers["last-event-id"]) || 0);
  const timeline = new Timeline(headOf(ctx, job), artifactBaseOf(job.id));
  const stream = openStream(ctx, res);
  let cursor = 0;
  let lastBeat = now();
  while (!stream.closed) {
    const entries = await options.store.read(id, cursor);
    for (const entry of entries) {
      cursor = Math.max(cursor, entry.seq);
      const ops = timeline.apply(entry);
      if (entry.seq > after && ops.length > 0) res.write(`id: ${entry.seq}\nevent: ops\ndata: ${JSON.stringify(ops)}\n\n`);
    }
    if (timeline.end) return stream.sendEnd(), true;
    if (ENDED.has(job.state) && entries.length === 0) {
      // Ended without a transcript end (it died, or never started): show the queue's word.
      res.write(`event: ops\ndata: ${JSON.stringify([timeline.headOp()])}\n\n`);
      return stream.sendEnd(), true;
    }
    if (now() - lastBeat > KEEP_ALIVE_MS) {
      res.write(": keep-alive\n\n");
      lastBeat = now();
    }
    await sleep(ctx.pollMs);
    if (stream.closed) break;
    const fresh = await options.queue.get(id);
    if (fresh) {
      job = fresh;
      timeline.setHead(headOf(ctx, job));
    }
  }
  return true;
}

/** Starts the event stream and keeps it among the open ones until it ends or the visitor leaves. */
function openStream(ctx: WebContext, res: ServerResponse): { readonly closed: boolean; sendEnd(): void } {
  res.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-store",
    connection: "keep-alive",
    "x-accel-buffering": "no",
  });
  res.write("retry: 2000\n\n");
  ctx.streams.add(res);
  let closed = false;
  const finish = () => {
    if (closed) return;
    closed = true;
    ctx.streams.delete(res);
    res.end();
  };
  res.on("close", () => {
    closed = true;
    ctx.streams.delete(res);
  });
  return {
    get closed() {
      return closed;
    },
    sendEnd() {
      res.write(`event: end\ndata: {}\n\n`);
      finish();
    },
  };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
