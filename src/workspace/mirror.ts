import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { lstat, mkdir, readdir, rename, rm, stat, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { git, GitError, REMOTE_PROTOCOLS } from "./git.js";
import { isLocked, withLock } from "./lock.js";
import { NAME, validateBranch, validateCloneUrl, validateRepoName } from "./refs.js";

/**
 * What a mirror holds: branches, tags and pull-request heads. `refs/pull/<n>/merge` is left out:
 * GitHub recomputes it whenever the base moves, so it would churn every fetch for nothing.
 */
export const MIRROR_REFSPECS = ["+refs/heads/*:refs/heads/*", "+refs/tags/*:refs/tags/*", "+refs/pull/*/head:refs/pull/*/head"];

/** Marker file inside a bare mirror whose mtime is its last use (survives restarts). */
const USED_STAMP = "crewbot-last-used";

export interface MirrorStoreOptions {
  /** `CREWBOT_DATA_DIR`; mirrors live under `<dataDir>/mirrors/<owner>/<repo>.git`. */
  dataDir: string;
  /** Total size of all mirrors before least-recently-used unused ones are removed. Default 5 GiB. */
  maxBytes?: number;
  /**
   * A mirror used this recently is never evicted, even when no lease of this process holds it:
   * another worker process on this host may be syncing or checking out from it. Default 10 min.
   */
  minIdleMs?: number;
  /** Per network command (first clone of a large repository included). Default 30 min. */
  timeoutMs?: number;
}

export interface RemoteRepo {
  owner: string;
  repo: string;
  /** The public clone URL (`repository.clone_url`), without credentials. */
  cloneUrl: string;
  /** Installation token for this sync; sent as a header only. Omit for a public repository. */
  token?: string;
  /** `repository.default_branch`: the mirror's HEAD, so `git log` in it and its clones mean something. */
  defaultBranch?: string;
}

/** A mirror kept from eviction until released; check out and read definitions, then release. */
export interface MirrorLease {
  path: string;
  release(): Promise<void>;
}

export const DEFAULT_MIRROR_MAX_BYTES = 5 * 1024 ** 3;

const leases = new Map<string, number>();

export class MirrorStore {
  readonly root: string;
  readonly maxBytes: number;
  readonly minIdleMs: number;
  readonly timeoutMs: number;
  /** Leases per mirror path, shared by every store of this process. */
  private readonly leases = leases;

  constructor(options: MirrorStoreOptions) {
    this.root = path.join(path.resolve(options.dataDir), "mirrors");
    this.maxBytes = options.maxBytes ?? DEFAULT_MIRROR_MAX_BYTES;
    this.minIdleMs = options.minIdleMs ?? 10 * 60_000;
    this.timeoutMs = options.timeoutMs ?? 30 * 60_000;
  }

  mirrorPath(owner: string, repo: string): string {
    validateRepoName(owner, repo);
    return path.join(this.root, owner, `${repo}.git`);
  }

  /**
   * Brings the mirror of the repository up to date — created on first use, then `fetch --prune`,
   * which downloads only what is new — and returns it leased. Syncs of one mirror are serialised.
   * Afterwards mirrors over the size cap are evicted, least recently used first.
   */
  async sync(remote: RemoteRepo): Promise<MirrorLease> {
    const mirror = this.mirrorPath(remote.owner, remote.repo);
    const url = validateCloneUrl(remote.cloneUrl).href;
    if (remote.defaultBranch !== undefined) await validateBranch(remote.defaultBranch);
    const lease = this.lease(mirror);
    try {
      await mkdir(path.dirname(mirror), { recursive: true }); // the lock file lives next to the mirror
      await withLock(mirror, async () => {
        if (existsSync(path.join(mirror, "HEAD"))) await this.fetch(mirror, url, remote.token);
        else await this.create(mirror, url, remote.token);
        if (remote.defaultBranch !== undefined) {
          await git(["symbolic-ref", "HEAD", `refs/heads/${remote.defaultBranch}`], { cwd: mirror, workspace: true });
        }
        // Stamped before the lock is let go: another process's eviction that gets the lock next
        // sees it as just used and keeps it while we check out.
        await touch(mirror);
      });
    } catch (error) {
      await lease.release();
      throw error;
    }
    await this.evict().catch(() => undefined); // a full disk shows up elsewhere; the job goes on
    return lease;
  }

  /** Leases an existing mirror without syncing it (e.g. a second read during one job). */
  lease(mirror: string): MirrorLease {
    this.leases.set(mirror, (this.leases.get(mirror) ?? 0) + 1);
    let released = false;
    return {
      path: mirror,
      release: async () => {
        if (released) return;
        released = true;
        const left = (this.leases.get(mirror) ?? 1) - 1;
        if (left > 0) this.leases.set(mirror, left);
        else this.leases.delete(mirror);
        await touch(mirror).catch(() => undefined);
      },
    };
  }

  private async fetch(mirror: string, url: string, token: string | undefined): Promise<void> {
    try {
      await git(["fetch", "--prune", "--no-tags", "--quiet", url, ...MIRROR_REFSPECS], {
        cwd: mirror,
        token,
        workspace: true,
        config: REMOTE_PROTOCOLS,
        timeoutMs: this.timeoutMs,
      });
    } catch (error) {
      throw explain(error, url);
    }
  }

  /** Built in a temporary directory and renamed into place: a half-made mirror is never used. */
  private async create(mirror: string, url: string, token: string | undefined): Promise<void> {
    const temp = `${mirror}.tmp-${randomBytes(4).toString("hex")}`;
    try {
      // An empty template: no sample hooks, nothing of the host's template dir.
      await git(["init", "--quiet", "--bare", "--template=", temp], { cwd: path.dirname(mirror), workspace: true });
      await this.fetch(temp, url, token);
      await rm(mirror, { recursive: true, force: true }); // leftovers of a crash (no HEAD)
      await rename(temp, mirror);
    } finally {
      await rm(temp, { recursive: true, force: true });
    }
  }

  /**
   * Removes least-recently-used mirrors until the total is within `maxBytes`, skipping any that
   * this process has leased or locked and any used within `minIdleMs`. Returns the removed paths.
   */
  async evict(): Promise<string[]> {
    // Trash a crashed eviction left behind (renamed away, so no one uses it).
    for (const name of await readdir(this.root).catch(() => [] as string[])) {
      if (name.startsWith(".trash-")) await rm(path.join(this.root, name), { recursive: true, force: true });
    }
    const mirrors = await this.list();
    let total = mirrors.reduce((sum, m) => sum + m.bytes, 0);
    const removed: string[] = [];
    for (const m of mirrors.sort((a, b) => a.usedMs - b.usedMs)) {
      if (total <= this.maxBytes) break;
      if (this.leases.has(m.path) || isLocked(m.path) || Date.now() - m.usedMs < this.minIdleMs) continue;
      const gone = await withLock(m.path, async () => {
        // Leased or synced (by any process) while we waited for the lock: keep it.
        if (this.leases.has(m.path) || !existsSync(m.path)) return false;
        const usedMs = await stat(path.join(m.path, USED_STAMP)).then((info) => info.mtimeMs, () => 0);
        if (usedMs > m.usedMs && Date.now() - usedMs < this.minIdleMs) return false;
        // Renamed first so that no reader ever sees a half-deleted mirror.
        const trash = path.join(this.root, `.trash-${randomBytes(6).toString("hex")}`);
        await rename(m.path, trash);
        await rm(trash, { recursive: true, force: true });
        return true;
      });
      if (gone) {
        total -= m.bytes;
        removed.push(m.path);
      }
    }
    return removed;
  }

  /** Every mirror on disk with its size and last use. */
  async list(): Promise<{ path: string; bytes: number; usedMs: number }[]> {
    const result: { path: string; bytes: number; usedMs: number }[] = [];
    for (const owner of await readdir(this.root).catch(() => [] as string[])) {
      if (!NAME.test(owner) || owner.startsWith(".")) continue;
      const ownerDir = path.join(this.root, owner);
      for (const name of await readdir(ownerDir).catch(() => [] as string[])) {
        if (!name.endsWith(".git")) continue; // skips `.lock` files and `.tmp-` dirs being built
        const mirror = path.join(ownerDir, name);
        const usedMs = await stat(path.join(mirror, USED_STAMP)).then(
          (info) => info.mtimeMs,
          () => stat(mirror).then((info) => info.mtimeMs, () => 0),
        );
        result.push({ path: mirror, bytes: await diskBytes(mirror), usedMs });
      }
    }
    return result;
  }
}

async function touch(mirror: string): Promise<void> {
  const stamp = path.join(mirror, USED_STAMP);
  const now = new Date();
  await utimes(stamp, now, now).catch(() => writeFile(stamp, ""));
}

/** Bytes a directory tree takes on disk (allocated blocks; symlinks not followed). */
async function diskBytes(dir: string): Promise<number> {
  let total = 0;
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) total += await diskBytes(full);
    else {
      const info = await lstat(full).catch(() => undefined);
      if (info) total += info.blocks ? info.blocks * 512 : info.size;
    }
  }
  return total;
}

/** git's authentication failures in words an operator understands; the token is already redacted. */
function explain(error: unknown, url: string): Error {
  if (!(error instanceof GitError)) return error as Error;
  if (/could not read Username|Authentication failed|\b401\b|\b403\b/i.test(error.stderr)) {
    const failure = new GitError(`fetching ${url} failed: authentication refused (is the installation token valid for this repository?)`);
    failure.stderr = error.stderr;
    return failure;
  }
  return error;
}
