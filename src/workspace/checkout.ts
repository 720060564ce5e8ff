import { existsSync } from "node:fs";
import { mkdir, readdir, realpath, rm } from "node:fs/promises";
import path from "node:path";
import { git, LOCAL_PROTOCOLS } from "./git.js";
import { isPartial, PARTIAL_CONFIG } from "./mirror.js";
import { resolveRef, validateCloneUrl } from "./refs.js";

export interface Checkout {
  /** realpath of the working tree; the agents work here. */
  path: string;
  /** The commit checked out (detached). */
  sha: string;
}

export interface CheckoutOptions {
  /** The bare mirror (`MirrorStore.sync(...).path`), already up to date. */
  mirror: string;
  /** A branch name, `refs/pull/<n>/head`, or a full commit sha. */
  ref: string;
  /** Where the working tree goes; must not exist or be empty. */
  dest: string;
  /** The public clone URL, written as `origin` (no credentials); without it origin is removed. */
  cloneUrl?: string;
}

/**
 * A job's own working tree of `ref`, made from the mirror without touching the network.
 *
 * `git clone --local` hardlinks the mirror's object files instead of copying them, so this costs
 * about as much as writing the working tree. `--shared`/`--reference` would be no faster but
 * leave `.git` depending on the mirror through `objects/info/alternates`: the agents' sandbox
 * does not mount the mirror (so `git log` in bash would break), and a later gc or eviction of
 * the mirror would corrupt a running job's repository.
 */
export async function makeCheckout({ mirror, ref, dest, cloneUrl }: CheckoutOptions): Promise<Checkout> {
  const origin = cloneUrl === undefined ? undefined : validateCloneUrl(cloneUrl).href;
  const sha = await resolveRef(mirror, ref);
  await mkdir(path.dirname(dest), { recursive: true });
  if (existsSync(dest) && (await readdir(dest)).length > 0) throw new Error(`checkout destination is not empty: ${dest}`);
  const options = { cwd: path.dirname(dest), workspace: true, config: LOCAL_PROTOCOLS };
  try {
    // An empty template: no sample hooks in the job's `.git`, nothing of the host's template dir.
    await git(["clone", "--quiet", "--local", "--no-checkout", "--template=", "--", mirror, dest], options);
    await git(["checkout", "--quiet", "--detach", sha], { ...options, cwd: dest });
    // The mirror path means nothing to agents and would leak server layout; pushes name the URL anyway.
    if (origin !== undefined) {
      await git(["remote", "set-url", "origin", origin], { ...options, cwd: dest });
      // From a partial mirror the history lacks old files: git is told they are promised, not lost.
      if (await isPartial(mirror)) for (const [key, value] of PARTIAL_CONFIG(origin)) await git(["config", key, value], { ...options, cwd: dest });
    } else {
      await git(["remote", "remove", "origin"], { ...options, cwd: dest });
    }
  } catch (error) {
    await rm(dest, { recursive: true, force: true });
    throw error;
  }
  return { path: await realpath(dest), sha };
}

/** Removes a job's checkout; safe to call twice. */
export async function removeCheckout(dest: string): Promise<void> {
  await rm(dest, { recursive: true, force: true });
}
