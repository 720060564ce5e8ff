/**
 * Replies to people whose comment starts nothing — no permission, rate-limited, a bot's label, an
 * unknown command, `/crewbot help`, a command this version does not run — are the one write a
 * stranger can make crewbot do at will. DESIGN.md §1: at most one such reply per person without
 * write permission and issue an hour, from a budget apart from the jobs' writes; further attempts
 * are only logged. A writer is always answered (their commands have their own rate limit).
 *
 * The counts live behind `CounterStore` (in memory by default) so that processes sharing a store
 * share the limits.
 */

/** Counters that expire: the store every process answering webhooks may share. */
export interface CounterStore {
  /**
   * Adds one to `key`'s count and resolves to the count after. A count lives `windowMs` from its
   * first add (then starts again from 0): a fixed window, as `INCR` + `PEXPIRE … NX` keeps it.
   */
  increment(key: string, windowMs: number): Promise<number>;
}

/** Counters kept past this many are dropped, expired ones first, then the oldest. */
const MAX_COUNTERS = 20_000;

/** The default store: one process's memory, bounded. */
export class MemoryCounters implements CounterStore {
  private readonly counts = new Map<string, { count: number; expiresAt: number }>();

  constructor(private readonly now: () => number = () => Date.now()) {}

  async increment(key: string, windowMs: number): Promise<number> {
    const now = this.now();
    const current = this.counts.get(key);
    const entry = current && current.expiresAt > now ? current : { count: 0, expiresAt: now + windowMs };
    entry.count += 1;
    this.counts.delete(key); // re-inserted: the map stays in least-recently-used order
    this.counts.set(key, entry);
    this.trim(now);
    return entry.count;
  }

  private trim(now: number): void {
    if (this.counts.size <= MAX_COUNTERS) return;
    for (const [key, entry] of this.counts) if (entry.expiresAt <= now) this.counts.delete(key);
    while (this.counts.size > MAX_COUNTERS) this.counts.delete(this.counts.keys().next().value!);
  }
}

export const REPLY_WINDOW_MS = 3_600_000;

/**
 * Replies an installation may send in one hour's window. A fixed window lets at most twice this
 * through in any 60 minutes: 10, which with the jobs' 480 (report/write-gate.ts) stays under
 * GitHub's 500 an hour, and with their 60 a minute under its 80.
 */
export const REPLIES_PER_INSTALLATION_HOUR = 5;

export type ReplyVerdict = { reply: true } | { reply: false; reason: string };

export interface ReplyPlace {
  installationId: number;
  login: string;
  /** Has write permission on the repository: always answered, and counted nowhere (DESIGN §1 limits the others). */
  writer: boolean;
  owner: string;
  repo: string;
  number: number;
}

/** Decides whether a reply to someone who started nothing is posted. */
export class ReplyLimiter {
  constructor(
    private readonly store: CounterStore = new MemoryCounters(),
    readonly perInstallationHour = REPLIES_PER_INSTALLATION_HOUR,
  ) {}

  async allow(place: ReplyPlace): Promise<ReplyVerdict> {
    if (place.writer) return { reply: true };
    const issue = `${place.owner}/${place.repo}#${place.number}`.toLowerCase();
    const person = `crewbot:reply:${place.installationId}:${place.login.toLowerCase()}:${issue}`;
    if ((await this.store.increment(person, REPLY_WINDOW_MS)) > 1) return { reply: false, reason: "already answered on this issue within the hour" };
    const installation = `crewbot:replies:${place.installationId}`;
    if ((await this.store.increment(installation, REPLY_WINDOW_MS)) > this.perInstallationHour) {
      return { reply: false, reason: `the installation's ${this.perInstallationHour} replies of the hour are spent` };
    }
    return { reply: true };
  }
}
