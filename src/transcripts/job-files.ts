/**
 * A job's files in the shared store (Redis), so that whichever process needs them has them: the
 * artifacts (full tool outputs, Actions logs), the `local://` scratch files and `commits.patch` (the
 * only copy of commits GitHub refused). The worker that runs the job copies its artifacts folder to
 * the store as it goes and when the handler returns (ended, deferred or paused for a question); the
 * app, serving a transcript page, and a worker resuming a paused job bring them back into their
 * own data dir, where the pages and tools read them as before. Without a shared store (the
 * embedded default) nothing of this runs: the data dir is the one copy.
 *
 * Caps (a Redis is memory): a file keeps at most MAX_SHARED_FILE_BYTES (commits.patch:
 * MAX_SHARED_PATCH_BYTES, a cut patch applies nowhere), a job at most MAX_SHARED_JOB_BYTES in all,
 * the patch first, then the scratch files, then the rest; what is cut keeps its end, after a note
 * saying so. The whole file stays on the worker that wrote it.
 */
import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { lstat, mkdir, open, readdir, realpath, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { isInside } from "../tools/paths.js";
import { isArtifactName } from "./recorder.js";

/** One file kept in the store at most (its end when it is bigger). */
export const MAX_SHARED_FILE_BYTES = 1024 * 1024;
/** The refused commits' patch: kept whole up to this, since a cut patch applies nowhere. */
export const MAX_SHARED_PATCH_BYTES = 16 * 1024 * 1024;
/** One job's files in the store together. */
export const MAX_SHARED_JOB_BYTES = 32 * 1024 * 1024;
/** How often a running job's new or changed files are copied to the store. */
export const SHARE_EVERY_MS = 15_000;

const PATCH = "commits.patch";
/** A file being brought back is written under this name first, then renamed. */
const FETCHING = ".crewbot-fetch-";
const SCRATCH = "local";
/** A name under `local/`: plain segments, at most this deep. */
const MAX_DEPTH = 12;
/** A job with more files than this shares the first ones (in priority order). */
const MAX_FILES = 2_000;

export interface SharedFileInfo {
  /** `/`-separated, relative to the job's artifacts: `tool-3.txt`, `local/notes/api.md`. */
  name: string;
  /** Changes whenever the stored content does. */
  version: string;
}

/** Where job files are kept for every process (store/redis/job-files.ts). */
export interface JobFileStore {
  put(jobId: string, name: string, content: Buffer, version: string): Promise<void>;
  list(jobId: string): Promise<SharedFileInfo[]>;
  get(jobId: string, name: string): Promise<Buffer | undefined>;
  /** Forgets the files of jobs last written before `before` (epoch ms); returns how many jobs. */
  prune(before: number): Promise<number>;
  close(): Promise<void>;
}

/** A name the store may hold and a process may write back: a plain artifact, or `local/<plain segments>`. */
export function isSharedName(name: string): boolean {
  const [first, ...rest] = name.split("/");
  if (rest.length === 0) return first !== SCRATCH && isArtifactName(first ?? ""); // "local" is the scratch folder
  return first === SCRATCH && rest.length <= MAX_DEPTH && rest.every((s) => s !== "" && s !== "." && s !== ".." && !s.startsWith(FETCHING) && !/[\\\0]/.test(s) && s.length <= 255);
}

/** What of a file of `bytes` the store keeps within `left` of the job's budget: its cap, and whether it is cut. */
export function sharePlan(name: string, bytes: number, left: number): { keep: number; cut: boolean } {
  const cap = Math.min(name === PATCH ? MAX_SHARED_PATCH_BYTES : MAX_SHARED_FILE_BYTES, Math.max(0, left));
  return bytes <= cap ? { keep: bytes, cut: false } : { keep: cap, cut: true };
}

/** The note before a cut file's end. */
export function cutNote(bytes: number, kept: number, workerId: string): string {
  return kept === 0
    ? `[crewbot: this job's files passed the shared store's ${MAX_SHARED_JOB_BYTES} bytes; this file (${bytes} bytes) is only on the worker ${workerId}]\n`
    : `[crewbot: only the last ${kept} of ${bytes} bytes are kept in the shared store; the whole file is on the worker ${workerId}]\n`;
}

/** Patch first (the only copy of refused commits), then scratch files (a resumed job needs them), then the rest. */
const rank = (name: string) => (name === PATCH ? 0 : name.startsWith(`${SCRATCH}/`) ? 1 : 2);

interface LocalFile {
  name: string;
  full: string;
  bytes: number;
  mtimeMs: number;
}

export class JobFiles {
  /** What this process copied to the store: job → name → the local size and mtime it copied. */
  private readonly shared = new Map<string, Map<string, string>>();
  /** What this process brought back from the store: job → name → the store's version and the local size and mtime written. */
  private readonly fetched = new Map<string, Map<string, { version: string; stat: string }>>();

  constructor(
    private readonly store: JobFileStore,
    private readonly dataDir: string,
    private readonly workerId: string,
  ) {}

  private artifacts(jobId: string): string {
    return path.join(this.dataDir, "jobs", jobId, "artifacts");
  }

  /** Copies the job's new and changed files to the store, within the caps. Returns how many were written. */
  async share(jobId: string): Promise<number> {
    const files = (await this.localFiles(jobId)).sort((a, b) => rank(a.name) - rank(b.name) || (a.name < b.name ? -1 : 1)).slice(0, MAX_FILES);
    const done = this.shared.get(jobId) ?? new Map<string, string>();
    this.shared.set(jobId, done);
    const fetched = this.fetched.get(jobId);
    let left = MAX_SHARED_JOB_BYTES;
    let written = 0;
    for (const file of files) {
      const plan = sharePlan(file.name, file.bytes, left);
      left -= plan.keep;
      const local = `${file.bytes}:${file.mtimeMs}:${plan.keep}`;
      // Unchanged since copied, or the store's own copy, as fetched and not changed since.
      if (done.get(file.name) === local || fetched?.get(file.name)?.stat === `${file.bytes}:${file.mtimeMs}`) continue;
      const content = await tail(file.full, file.bytes, plan.keep);
      const body = plan.cut ? Buffer.concat([Buffer.from(cutNote(file.bytes, plan.keep, this.workerId)), content]) : content;
      await this.store.put(jobId, file.name, body, `${Date.now()}:${file.bytes}:${plan.keep}`);
      done.set(file.name, local);
      written += 1;
    }
    return written;
  }

  /**
   * Brings the job's stored files into this data dir: the ones missing here, and the ones this
   * process fetched before that changed since. A file this process wrote itself is never replaced.
   */
  async fetch(jobId: string): Promise<number> {
    const stored = await this.store.list(jobId);
    if (stored.length === 0) return 0;
    const fetched = this.fetched.get(jobId) ?? new Map<string, { version: string; stat: string }>();
    this.fetched.set(jobId, fetched);
    const root = this.artifacts(jobId);
    await mkdir(root, { recursive: true });
    const real = await realpath(root);
    let written = 0;
    for (const { name, version } of stored) {
      if (!isSharedName(name) || fetched.get(name)?.version === version) continue;
      const target = path.join(real, ...name.split("/"));
      if (!fetched.has(name) && (await lstat(target).catch(() => undefined))) continue; // this process's own file
      const content = await this.store.get(jobId, name);
      if (content === undefined) continue;
      const info = await writeInside(real, target, content);
      if (info) {
        fetched.set(name, { version, stat: `${info.size}:${info.mtimeMs}` });
        written += 1;
      }
    }
    return written;
  }

  /** Forgets what it copied of a job (once the job ended here and its last copy was made). */
  forget(jobId: string): void {
    this.shared.delete(jobId);
  }

  /** Regular files only (symlinks neither followed nor copied), with names the store accepts. */
  private async localFiles(jobId: string): Promise<LocalFile[]> {
    const root = this.artifacts(jobId);
    const entries = await readdir(root, { withFileTypes: true, recursive: true }).catch(() => []);
    const out: LocalFile[] = [];
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const full = path.join(entry.parentPath, entry.name);
      const name = path.relative(root, full).split(path.sep).join("/");
      if (!isSharedName(name)) continue;
      const info = await lstat(full).catch(() => undefined);
      if (info?.isFile()) out.push({ name, full, bytes: info.size, mtimeMs: info.mtimeMs });
    }
    return out;
  }
}

/** The last `keep` bytes of a file of `bytes`. */
async function tail(file: string, bytes: number, keep: number): Promise<Buffer> {
  if (keep === 0) return Buffer.alloc(0);
  // Never through a link, even one planted between the listing and this read.
  const handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    const size = Math.min(keep, bytes);
    const buffer = Buffer.alloc(size);
    const { bytesRead } = await handle.read(buffer, 0, size, bytes - size);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * Writes `content` at `target` inside `root`: the folders made, each checked with realpath to stay
 * inside (a symlink planted in a scratch folder leads nowhere), the file written beside it and
 * renamed over, so a symlink at the name is replaced, never followed. Undefined when refused.
 */
async function writeInside(root: string, target: string, content: Buffer): Promise<{ size: number; mtimeMs: number } | undefined> {
  const dir = path.dirname(target);
  try {
    await mkdir(dir, { recursive: true });
    const realDir = await realpath(dir);
    if (!isInside(root, realDir)) return undefined;
    const temp = path.join(realDir, `${FETCHING}${randomBytes(6).toString("hex")}`);
    await writeFile(temp, content, { flag: "wx", mode: 0o600 });
    const final = path.join(realDir, path.basename(target));
    await rename(temp, final).catch(async (err) => {
      await rm(temp, { force: true });
      throw err;
    });
    return await lstat(final);
  } catch {
    return undefined;
  }
}

/** Where a job's sharing reports a failure (never fatal to the job: its files stay on this worker). */
export type ShareLog = { warn(message: string): void };

/**
 * Runs `run` (one job's handler) with its files shared: the stored ones brought back first (a job
 * resumed on another worker finds its scratch files), new and changed ones copied every
 * SHARE_EVERY_MS while it runs, and all of them once more when it returns or throws (after
 * `settle`: the files still being written).
 */
export async function withSharedFiles<T>(files: JobFiles | undefined, jobId: string, log: ShareLog, run: () => Promise<T>, settle?: () => Promise<unknown>): Promise<T> {
  if (!files) return run();
  const warn = (what: string) => (err: Error) => log.warn(`job ${jobId}: ${what} the shared store failed: ${err.message}`);
  await files.fetch(jobId).catch(warn("bringing its files back from"));
  let sharing: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => void (sharing = sharing.then(() => files.share(jobId)).catch(warn("copying its files to"))), SHARE_EVERY_MS);
  timer.unref();
  try {
    return await run();
  } finally {
    clearInterval(timer);
    await sharing;
    await settle?.().catch(() => undefined); // files still being written (the recorder's artifacts)
    await files.share(jobId).catch(warn("copying its files to"));
    files.forget(jobId);
  }
}
