/**
 * Checkout bench: a fresh `git clone` over HTTP (what a job would do without mirrors) against a
 * later job's sync of an up-to-date mirror plus its checkout. The repository (~50 MB of
 * incompressible files over a few commits) is made here and served by `git http-backend`
 * behind the token check, so both paths pay for the same HTTP, auth and pack handling.
 */
import { randomBytes } from "node:crypto";
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { makeCheckout, removeCheckout } from "../src/workspace/checkout.js";
import { git, REMOTE_PROTOCOLS } from "../src/workspace/git.js";
import { MirrorStore } from "../src/workspace/mirror.js";
import { startGitHttpServer } from "../test/helpers/git-http-server.js";
import { gitSync, tempDir } from "../test/helpers/git-repo.js";

export interface Timing {
  /** Median ms of a fresh clone (with checkout). */
  cloneMs: number;
  /** Median ms of a later job's sync (nothing new) + checkout from the mirror. */
  mirrorMs: number;
  ratio: number;
}

export interface CheckoutBench {
  repoBytes: number;
  /** Over loopback: no latency, gigabytes a second — the least favourable case for a mirror. */
  loopback: Timing;
  /** Over an emulated link (LINK below), closer to a clone from github.com. */
  link: Timing;
}

/** 100 Mbit/s and 20 ms before each HTTP request is answered. */
export const LINK = { bytesPerSecond: 100e6 / 8, latencyMs: 20 };

const COMMITS = 5;
const FILES_PER_COMMIT = 10;
const FILE_BYTES = 1024 * 1024;

/** ~50 MB of incompressible files over a few commits, packed; `extra` files are added in the last commit. */
export async function makeBigRepo(dir: string, extra: Record<string, string> = {}): Promise<number> {
  await mkdir(dir, { recursive: true });
  gitSync(dir, "init", "-q", "-b", "main");
  let bytes = 0;
  for (let c = 0; c < COMMITS; c++) {
    for (let f = 0; f < FILES_PER_COMMIT; f++) {
      await mkdir(path.join(dir, `d${c}`), { recursive: true });
      await writeFile(path.join(dir, `d${c}`, `blob${f}.bin`), randomBytes(FILE_BYTES));
      bytes += FILE_BYTES;
    }
    await writeFile(path.join(dir, "README.md"), `# bench\n\ncommit ${c}\n`);
    if (c === COMMITS - 1) {
      for (const [name, content] of Object.entries(extra)) {
        await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
        await writeFile(path.join(dir, name), content);
      }
    }
    gitSync(dir, "add", "-A");
    gitSync(dir, "commit", "-q", "-m", `commit ${c}`);
  }
  // Served as GitHub serves: packed, so the fresh clone is not slowed by loose objects.
  gitSync(dir, "gc", "-q");
  return bytes;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

async function measure(work: string, cloneUrl: string, token: string, runs: number): Promise<Timing> {
  const remote = { owner: "octo", repo: "big", cloneUrl, token, defaultBranch: "main" };
  const store = new MirrorStore({ dataDir: path.join(work, "data") });
  await (await store.sync(remote)).release(); // an earlier job made (or updated) the mirror
  const clones: number[] = [];
  const mirrors: number[] = [];
  for (let i = 0; i < runs; i++) {
    const fresh = path.join(work, `clone-${i}`);
    clones.push(await timed(() => git(["clone", "--quiet", "--", cloneUrl, fresh], { cwd: work, token, config: REMOTE_PROTOCOLS })));
    await rm(fresh, { recursive: true, force: true });

    const dest = path.join(work, `job-${i}`);
    mirrors.push(
      await timed(async () => {
        const lease = await store.sync(remote);
        try {
          await makeCheckout({ mirror: lease.path, ref: "main", dest, cloneUrl });
        } finally {
          await lease.release();
        }
      }),
    );
    await removeCheckout(dest);
  }
  const cloneMs = median(clones);
  const mirrorMs = median(mirrors);
  return { cloneMs, mirrorMs, ratio: cloneMs / mirrorMs };
}

export async function checkoutBench(runs = 3): Promise<CheckoutBench> {
  const token = `ghs_${randomBytes(18).toString("hex")}`;
  const root = await tempDir("crewbot-bench-served-");
  const work = await tempDir("crewbot-bench-checkout-");
  const repoBytes = await makeBigRepo(path.join(root, "octo", "big.git"));
  const fast = await startGitHttpServer({ root, token });
  const slow = await startGitHttpServer({ root, token, link: LINK });
  try {
    return {
      repoBytes,
      loopback: await measure(work, fast.cloneUrl("octo", "big"), token, runs),
      link: await measure(work, slow.cloneUrl("octo", "big"), token, runs),
    };
  } finally {
    await Promise.all([fast.close(), slow.close()]);
    await rm(root, { recursive: true, force: true });
    await rm(work, { recursive: true, force: true });
  }
}
