/**
 * Turns a job's agent events (and its start and end) into transcript entries: redacted like every
 * comment (known token shapes, the operator's secrets, the job's installation token), text deltas
 * joined, tool outputs cut to their tail with the whole output left in the job's artifacts.
 * Writes are batched and never fail the job: a store error is logged.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { AgentEvent } from "../agent/events.js";
import type { JobRecord } from "../queue/types.js";
import { redact } from "../secrets/redact.js";
import type { Terminal } from "../report/types.js";
import type { TranscriptBody, TranscriptEntry, TranscriptStore } from "./types.js";

/** How much of a tool's output an entry keeps (its end); more is in an artifact. */
export const OUTPUT_TAIL_CHARS = 8 * 1024;
const ARGS_MAX_CHARS = 4 * 1024;
const STEP_OUTPUT_MAX_CHARS = 100 * 1024;
const MESSAGE_MAX_CHARS = 4 * 1024;

export interface RecorderOptions {
  store: TranscriptStore;
  /** `CREWBOT_DATA_DIR`: artifacts are in `<dataDir>/jobs/<jobId>/artifacts/`. */
  dataDir: string;
  /** The operator's secrets (`secretsFromEnv`). */
  secrets: string[];
  log?: { warn(message: string): void };
  /** Batching delay of writes (ms). */
  flushMs?: number;
  now?: () => number;
}

interface JobState {
  secrets: string[];
  pending: TranscriptEntry[];
  files: Array<Promise<void>>;
  text?: { agent: string; item?: number; text: string; at: number };
  timer?: NodeJS.Timeout;
  chain: Promise<void>;
}

export class TranscriptRecorder {
  private readonly jobs = new Map<string, JobState>();
  private readonly flushMs: number;
  private readonly now: () => number;
  private warned = false;

  constructor(private readonly options: RecorderOptions) {
    this.flushMs = options.flushMs ?? 250;
    this.now = options.now ?? Date.now;
  }

  get store(): TranscriptStore {
    return this.options.store;
  }

  /** The job's first entry: who asked what, where. `secrets`: the job's own (its installation token). */
  begin(job: JobRecord, secrets: Array<string | undefined> = []): void {
    const state = this.stateOf(job.id);
    for (const s of secrets) if (s) state.secrets.push(s);
    const entry: TranscriptBody = {
      type: "job_start",
      kind: job.kind,
      sender: this.r(job.trigger.sender, state),
      request: this.r(job.trigger.request, state, STEP_OUTPUT_MAX_CHARS),
      repo: `${job.target.owner}/${job.target.repo}`,
      number: job.target.number,
      isPullRequest: job.target.isPullRequest,
      ...(job.subject ? { title: this.r(job.subject.title, state, MESSAGE_MAX_CHARS) } : {}),
    };
    this.push(job.id, entry);
  }

  /** The repository's config makes this public repository's transcripts public. */
  makePublic(jobId: string): void {
    this.push(jobId, { type: "visibility", public: true });
  }

  /** One agent event of the job. */
  append(jobId: string, event: AgentEvent): void {
    const state = this.stateOf(jobId);
    if (event.type === "text") {
      if (state.text && (state.text.agent !== event.agent || state.text.item !== event.item)) this.flushText(jobId, state, true);
      state.text ??= { agent: event.agent, ...(event.item !== undefined ? { item: event.item } : {}), text: "", at: this.now() };
      state.text.text += event.text;
      this.schedule(jobId, state);
      return;
    }
    this.flushText(jobId, state, true);
    if (event.type === "tool_end") return this.toolEnd(jobId, state, event);
    this.push(jobId, this.clean(event, state.secrets));
  }

  /** The terminal entry; resolves once everything of the job is stored. Never throws. */
  async end(jobId: string, terminal: Terminal, outcome: string): Promise<void> {
    const state = this.stateOf(jobId);
    this.flushText(jobId, state, true);
    this.push(jobId, { type: "job_end", terminal: terminal.kind, outcome: redact(outcome, this.secretsOf(state)) });
    await this.flush(jobId);
    this.jobs.delete(jobId);
  }

  /** Writes what is pending (all jobs when no id is given). */
  async flush(jobId?: string): Promise<void> {
    const ids = jobId === undefined ? [...this.jobs.keys()] : [jobId];
    await Promise.all(
      ids.map((id) => {
        const state = this.jobs.get(id);
        if (!state) return undefined;
        this.flushText(id, state, false);
        return this.write(id, state);
      }),
    );
  }

  private stateOf(jobId: string): JobState {
    let state = this.jobs.get(jobId);
    if (!state) {
      state = { secrets: [], pending: [], files: [], chain: Promise.resolve() };
      this.jobs.set(jobId, state);
    }
    return state;
  }

  private secretsOf(state: JobState): string[] {
    return [...this.options.secrets, ...state.secrets];
  }

  private r(text: string, state: JobState, max?: number): string {
    const out = redact(text, this.secretsOf(state));
    return max !== undefined && out.length > max ? `${out.slice(0, max)}… [cut: ${out.length} chars]` : out;
  }

  private clean(event: Exclude<AgentEvent, { type: "text" | "tool_end" }>, secrets: string[]): TranscriptBody {
    const state = { secrets } as JobState;
    switch (event.type) {
      case "tool_start":
        return { ...event, args: this.r(event.args, state, ARGS_MAX_CHARS) };
      case "step_end":
        return event.output === undefined ? event : { ...event, output: this.r(event.output, state, STEP_OUTPUT_MAX_CHARS) };
      case "run_end":
        return event.error === undefined ? event : { ...event, error: this.r(event.error, state, MESSAGE_MAX_CHARS) };
      case "log":
        return { ...event, message: this.r(event.message, state, MESSAGE_MAX_CHARS) };
      default:
        return event;
    }
  }

  private toolEnd(jobId: string, state: JobState, event: Extract<AgentEvent, { type: "tool_end" }>): void {
    const full = redact(event.output, this.secretsOf(state));
    let artifact = artifactNameIn(event.output, jobId);
    const cut = full.length > OUTPUT_TAIL_CHARS;
    if (cut && artifact === undefined) {
      // The whole (redacted) output goes to the job's artifacts; the store keeps its end.
      artifact = `tool-${event.id.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 80)}.log`;
      const dir = path.join(this.options.dataDir, "jobs", jobId, "artifacts");
      const file = path.join(dir, artifact);
      state.files.push(
        mkdir(dir, { recursive: true })
          .then(() => writeFile(file, full, { mode: 0o600 }))
          .catch((err: Error) => this.warn(`transcript artifact ${artifact}: ${err.message}`)),
      );
    }
    this.push(jobId, {
      type: "tool_end",
      agent: event.agent,
      id: event.id,
      name: event.name,
      ok: event.ok,
      ms: event.ms,
      output: cut ? full.slice(full.length - OUTPUT_TAIL_CHARS) : full,
      outputBytes: Buffer.byteLength(event.output),
      ...(artifact !== undefined ? { artifact } : {}),
      ...(event.item !== undefined ? { item: event.item } : {}),
    });
  }

  /** Text so far becomes an entry; a partial flush keeps the last word back (a secret may go on in the next delta). */
  private flushText(jobId: string, state: JobState, all: boolean): void {
    const pending = state.text;
    if (!pending) return;
    let text = pending.text;
    let rest = "";
    if (!all) {
      const cutAt = Math.max(text.lastIndexOf(" "), text.lastIndexOf("\n")) + 1;
      rest = text.slice(cutAt);
      text = text.slice(0, cutAt);
    }
    state.text = rest ? { ...pending, text: rest, at: this.now() } : undefined;
    const item = pending.item !== undefined ? { item: pending.item } : {};
    if (text) state.pending.push({ type: "text", agent: pending.agent, ...item, text: this.r(text, state), at: pending.at });
    if (state.text) this.schedule(jobId, state);
  }

  private push(jobId: string, body: TranscriptBody): void {
    const state = this.stateOf(jobId);
    state.pending.push({ ...body, at: this.now() } as TranscriptEntry);
    this.schedule(jobId, state);
  }

  private schedule(jobId: string, state: JobState): void {
    if (state.timer) return;
    state.timer = setTimeout(() => {
      state.timer = undefined;
      void this.flush(jobId);
    }, this.flushMs);
    state.timer.unref();
  }

  private write(jobId: string, state: JobState): Promise<void> {
    if (state.timer) {
      clearTimeout(state.timer);
      state.timer = undefined;
      if (state.text) this.schedule(jobId, state);
    }
    const entries = state.pending.splice(0);
    const files = state.files.splice(0);
    state.chain = state.chain.then(async () => {
      await Promise.all(files);
      if (entries.length === 0) return;
      try {
        await this.options.store.append(jobId, entries);
      } catch (err) {
        this.warn(`transcript of ${jobId}: ${(err as Error).message}`);
      }
    });
    return state.chain;
  }

  private warn(message: string): void {
    if (this.warned) return;
    this.warned = true;
    this.options.log?.warn(message);
  }
}

/** The artifact a tool output points at (`…/jobs/<jobId>/artifacts/<name>`), by its file name. */
export function artifactNameIn(output: string, jobId: string): string | undefined {
  const escaped = jobId.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const match = new RegExp(`/jobs/${escaped}/artifacts/([A-Za-z0-9._-]+)`).exec(output);
  const name = match?.[1]?.replace(/[.]+$/, "");
  return name && isArtifactName(name) ? name : undefined;
}

/** A plain file name: no separators, no dot-dot, nothing hidden. */
export function isArtifactName(name: string): boolean {
  return /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,200}$/.test(name) && !name.includes("..");
}
