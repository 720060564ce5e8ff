import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { lstat, mkdir, readdir, rename, rm, stat, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { git, GitError, LOCAL_PROTOCOLS, REMOTE_PROTOCOLS } from "./git.js";
import { isLocked, withLock } from "./lock.js";
import { NAME, resolveRef, validateBranch, validateCloneUrl, validateRepoName } from "./refs.js";

/**
 * What a mirror holds: branches and tags, plus the head of each pull request a job needed
 * (`refs/pull/<n>/head`, fetched on demand): every PR head ever pushed would be most of a large
 * active repository. `refs/pull/<n>/merge` is never fetched: GitHub recomputes it whenever the
 * base moves, so it would churn every fetch for nothing.
 */
export const MIRROR_REFSPECS = ["+refs/heads/*:refs/heads/*", "+refs/tags/*:refs/tags/*"];

/** The refspec of one pull request's head. */
export const pullRefspec = (n: number) => `+refs/pull/${n}/head:refs/pull/${n}/head`;

/**
 * Repositories larger than this (`repository.size`, in KB) are mirrored as partial clones
 * (`--filter=blob:none`): history without file contents, whose blobs are fetched for the trees a
 * job checks out. 1 GB: below it a full mirror is fetched once and then only what is new.
 */
export const PARTIAL_CLONE_ABOVE_KB = 1024 * 1024;

/** The promisor remote of a partial mirror (and of checkouts made from it). */
const PROMISOR = "origin";

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
  /** `repository.size` (KB) above which a new mirror is a partial clone. Default PARTIAL_CLONE_ABOVE_KB. */
  partialAboveKb?: number;
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
  /** `repository.size` in KB (GitHub's figure): a large repository gets a partial mirror. */
  sizeKb?: number;
  /** Pull requests whose heads this job needs: `refs/pull/<n>/head` fetched with the branches. */
  pulls?: number[];
  /**
   * Commits (branch names, `refs/pull/<n>/head`, shas) a job will check out or diff: in a partial
   * mirror the files of their trees, of the default branch and of their merge bases with it are
   * fetched now, with the token, so that checkouts and diffs later need no network.
   */
  hydrate?: string[];
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
  readonly partialAboveKb: number;
  /** Leases per mirror path, shared by every store of this process. */
  private readonly leases = leases;

  constructor(options: MirrorStoreOptions) {
    this.root = path.join(path.resolve(options.dataDir), "mirrors");
    this.maxBytes = options.maxBytes ?? DEFAULT_MIRROR_MAX_BYTES;
    this.minIdleMs = options.minIdleMs ?? 10 * 60_000;
    this.timeoutMs = options.timeoutMs ?? 30 * 60_000;
    this.partialAboveKb = options.partialAboveKb ?? PARTIAL_CLONE_ABOVE_KB;
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
    const pulls = [...new Set(remote.pulls ?? [])];
    for (const n of pulls) if (!Number.isSafeInteger(n) || n < 1) throw new Error(`invalid pull request number ${n}`);
    const lease = this.lease(mirror);
    try {
      await mkdir(path.dirname(mirror), { recursive: true }); // the lock file lives next to the mirror
      await withLock(mirror, async () => {
        const partial = (remote.sizeKb ?? 0) > this.partialAboveKb;
        if (existsSync(path.join(mirror, "HEAD"))) {
          await dropEveryPullHead(mirror);
          await this.fetch(mirror, url, remote.token, pulls);
        } else {
          await this.create(mirror, url, remote.token, pulls, partial);
        }
        if (remote.defaultBranch !== undefined) {
          await git(["symbolic-ref", "HEAD", `refs/heads/${remote.defaultBranch}`], { cwd: mirror, workspace: true });
        }
        if (await isPartial(mirror)) await this.hydrate(mirror, remote);
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

  /**
   * `fetch --prune` of branches, tags and the PRs' heads. A partial mirror fetches from its
   * promisor remote (the same URL, kept in its config) so that what arrives is marked as such.
   */
  private async fetch(mirror: string, url: string, token: string | undefined, pulls: number[]): Promise<void> {
    const partial = await isPartial(mirror);
    if (partial) await git(["config", `remote.${PROMISOR}.url`, url], { cwd: mirror, workspace: true }); // a renamed repository
    const source = partial ? ["--filter=blob:none", PROMISOR] : [url];
    try {
      await git(["fetch", "--prune", "--no-tags", "--quiet", "--no-write-fetch-head", ...source, ...MIRROR_REFSPECS, ...pulls.map(pullRefspec)], {
        cwd: mirror,
        token,
        workspace: true,
        config: REMOTE_PROTOCOLS,
        timeoutMs: this.timeoutMs,
      });
    } catch (error) {
      const missing = /couldn't find remote ref refs\/pull\/(\d+)\/head/.exec((error as GitError).stderr ?? "");
      if (missing) throw new GitError(`pull request #${missing[1]} has no head on GitHub (refs/pull/${missing[1]}/head): was it deleted?`);
      throw explain(error, url);
    }
  }

  /**
   * In a partial mirror: the files of the trees a job needs (HEAD, `remote.hydrate` and their
   * merge bases with HEAD) that are not here yet, fetched by id in batches with the token.
   */
  private async hydrate(mirror: string, remote: RemoteRepo): Promise<void> {
    const inMirror = { cwd: mirror, workspace: true };
    const head = remote.defaultBranch !== undefined
      ? await resolveRef(mirror, remote.defaultBranch).catch(() => undefined)
      : (await git(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], inMirror).catch(() => "")).trim() || undefined;
    const tips = head ? [head] : [];
    for (const rev of remote.hydrate ?? []) {
      const sha = await resolveRef(mirror, rev).catch(() => undefined);
      if (!sha) continue; // checking it out will say what is wrong
      tips.push(sha);
      const base = head ? (await git(["merge-base", "--end-of-options", head, sha], inMirror).catch(() => "")).trim() : "";
      if (base) tips.push(base);
    }
    if (tips.length === 0) return;
    const listing = await git(["rev-list", "--objects", "--no-object-names", "--missing=print", "--end-of-options", ...new Set(tips.map((t) => `${t}^{tree}`)), "--"], {
      ...inMirror,
      maxBuffer: 512 * 1024 * 1024,
    });
    const missing = listing.split("\n").filter((line) => line.startsWith("?")).map((line) => line.slice(1));
    for (let i = 0; i < missing.length; i += 1000) {
      const batch = missing.slice(i, i + 1000);
      try {
        // As git's own lazy fetch does it: no negotiation, the ids asked for are all that is wanted.
        await git(["fetch", "--quiet", "--no-tags", "--no-write-fetch-head", "--recurse-submodules=no", "--filter=blob:none", PROMISOR, ...batch], {
          cwd: mirror,
          token: remote.token,
          workspace: true,
          config: [...REMOTE_PROTOCOLS, "fetch.negotiationAlgorithm=noop"],
          timeoutMs: this.timeoutMs,
        });
      } catch (error) {
        throw explain(error, validateCloneUrl(remote.cloneUrl).href);
      }
    }
  }

  /** Built in a temporary directory and renamed into place: a half-made mirror is never used. */
  private async create(mirror: string, url: string, token: string | undefined, pulls: number[], partial: boolean): Promise<void> {
    const temp = `${mirror}.tmp-${randomBytes(4).toString("hex")}`;
    try {
      // An empty template: no sample hooks, nothing of the host's template dir.
      await git(["init", "--quiet", "--bare", "--template=", temp], { cwd: path.dirname(mirror), workspace: true });
      await git(["config", ON_DEMAND_PULLS, "on-demand"], { cwd: temp, workspace: true });
      if (partial) {
        for (const [key, value] of PARTIAL_CONFIG(url)) await git(["config", key, value], { cwd: temp, workspace: true });
      }
      await this.fetch(temp, url, token, pulls);
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
      if (await this.removeIdle(m, this.minIdleMs)) {
        total -= m.bytes;
        removed.push(m.path);
      }
    }
    return removed;
  }

  /**
   * Removes every mirror not used for `olderThanMs` (its last sync, checkout or lease release),
   * skipping any this process has leased or locked: repositories no longer used stop taking disk.
   * Returns the removed paths.
   */
  async pruneMirrors(olderThanMs: number): Promise<string[]> {
    if (!Number.isFinite(olderThanMs) || olderThanMs < 0) throw new Error(`pruneMirrors: invalid age ${olderThanMs}`);
    const removed: string[] = [];
    for (const m of await this.list()) {
      if (Date.now() - m.usedMs >= olderThanMs && (await this.removeIdle(m, olderThanMs))) removed.push(m.path);
    }
    return removed;
  }

  /** Removes one mirror unless it is leased, locked, or was used within `idleMs` (by any process). */
  private async removeIdle(m: { path: string; usedMs: number }, idleMs: number): Promise<boolean> {
    if (this.leases.has(m.path) || isLocked(m.path) || Date.now() - m.usedMs < idleMs) return false;
    return withLock(m.path, async () => {
      // Leased or synced (by any process) while we waited for the lock: keep it.
      if (this.leases.has(m.path) || !existsSync(m.path)) return false;
      const usedMs = await stat(path.join(m.path, USED_STAMP)).then((info) => info.mtimeMs, () => 0);
      if (usedMs > m.usedMs && Date.now() - usedMs < idleMs) return false;
      // Renamed first so that no reader ever sees a half-deleted mirror.
      const trash = path.join(this.root, `.trash-${randomBytes(6).toString("hex")}`);
      await rename(m.path, trash);
      await rm(trash, { recursive: true, force: true });
      return true;
    });
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

/** Set in mirrors that fetch PR heads on demand; a mirror without it may hold every PR head ever pushed. */
const ON_DEMAND_PULLS = "crewbot.pullHeads";

/**
 * Once per mirror made when every PR head was fetched: those refs are deleted, so their objects
 * can go (the heads this job needs are fetched again right after; their objects are still here).
 * Done under the mirror's lock, before any job of this version could have checked one out.
 */
async function dropEveryPullHead(mirror: string): Promise<void> {
  const inMirror = { cwd: mirror, workspace: true };
  const marked = await git(["config", "--get", ON_DEMAND_PULLS], inMirror).catch(() => "");
  if (marked.trim() === "on-demand") return;
  // A prune against a namespace nobody has deletes every refs/pull/* in one command.
  await git(["fetch", "--prune", "--no-tags", "--quiet", "--no-write-fetch-head", ".", "+refs/crewbot-none/*:refs/pull/*"], { ...inMirror, config: LOCAL_PROTOCOLS });
  await git(["config", ON_DEMAND_PULLS, "on-demand"], inMirror);
}

/** The config of a partial clone whose missing objects come from `url` (the clone URL, no credentials). */
export const PARTIAL_CONFIG = (url: string): [string, string][] => [
  ["core.repositoryformatversion", "1"],
  [`remote.${PROMISOR}.url`, url],
  [`remote.${PROMISOR}.promisor`, "true"],
  [`remote.${PROMISOR}.partialclonefilter`, "blob:none"],
  ["extensions.partialClone", PROMISOR],
];

/** Whether the repository at `dir` is a partial clone (some blobs come from its promisor remote). */
export async function isPartial(dir: string): Promise<boolean> {
  const value = await git(["config", "--get", "extensions.partialClone"], { cwd: dir, workspace: true }).catch(() => "");
  return value.trim() !== "";
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
