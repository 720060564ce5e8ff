/**
 * How much a sandboxed program wrote to the disk it may write (the checkout and its scratch HOME),
 * polled while it runs. The filesystem's usage is cheap to poll but counts every writer on it (other
 * jobs too): when it says the quota is passed, the checkout and HOME themselves are measured before
 * anyone is blamed, and growth they do not explain is written off as someone else's.
 */
import { diskUsed, treeBytes } from "./limits.js";

const DISK_POLL_MS = 200;

export interface DiskQuota {
  /** The growth over the quota now; undefined while within it. */
  check(): Promise<number | undefined>;
  stop(): void;
}

/** Starts polling `watched`; `over` is called (once) with the growth when it passes `maxBytes`. */
export async function watchDiskWrites(watched: readonly string[], maxBytes: number, over: (grown: number) => void): Promise<DiskQuota> {
  let diskBase = await diskUsed([...watched]);
  const treeBase = treeBytes([...watched]);
  const check = async (): Promise<number | undefined> => {
    const used = await diskUsed([...watched]);
    if (used - diskBase <= maxBytes) return undefined;
    const grown = (await treeBytes([...watched])) - (await treeBase);
    if (grown > maxBytes) return grown;
    diskBase = used - Math.max(0, grown);
    return undefined;
  };
  let polling = false;
  let told = false;
  const poll = setInterval(() => {
    if (polling || told) return;
    polling = true;
    void check()
      .then((grown) => {
        if (grown === undefined || told) return;
        told = true;
        over(grown);
      })
      .finally(() => {
        polling = false;
      });
  }, DISK_POLL_MS);
  return { check, stop: () => clearInterval(poll) };
}
