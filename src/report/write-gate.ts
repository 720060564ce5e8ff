/**
 * The write budget of one installation: writes start one at a time, `minSpacingMs` apart, and
 * within two token buckets sized under GitHub's secondary limits on content-creating requests
 * (80 a minute, 500 an hour). Progress edits are the one kind of write that can wait without
 * harm (the next one carries the newest state anyway): they go only when nothing else is waiting
 * and only while a reserve is left, so comments, final edits and reviews never starve behind them.
 * Replies to people who started nothing have a budget of their own (triggers/stranger-replies.ts):
 * they are spaced like any write but take none of these tokens.
 * With a shared budget (Redis), the spacing and both buckets are one per installation across every
 * process; the order of this process's own writes is still kept here.
 */

export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** GitHub's advice for content-creating requests: about a second between them. */
export const DEFAULT_WRITE_SPACING_MS = 1000;

export interface WriteBudget {
  /** Writes at once of the minute bucket. Default 20. */
  minuteBurst: number;
  /** Writes a minute after the burst. Default 40: with the burst, at most 60 in any minute (GitHub's limit is 80). */
  perMinute: number;
  /** Writes at once of the hour bucket. Default 80. */
  hourBurst: number;
  /** Writes an hour after the burst. Default 400: with the burst, at most 480 in any hour (GitHub's limit is 500). */
  perHour: number;
  /** Tokens of each bucket that progress edits leave to every other write. Default 5 of the minute's, 30 of the hour's. */
  progressReserve: { minute: number; hour: number };
}

export const DEFAULT_WRITE_BUDGET: WriteBudget = {
  minuteBurst: 20,
  perMinute: 40,
  hourBurst: 80,
  perHour: 400,
  progressReserve: { minute: 5, hour: 30 },
};

/**
 * The spacing and buckets of an installation kept outside the process (every process's gate of the
 * installation asks the same one). One call is one atomic step: it answers how long to wait, and
 * takes a write when the answer is 0.
 */
export interface SharedWriteBudget {
  /**
   * Takes one write when `spacingMs` passed since the last one and both buckets hold more than
   * `keep` of theirs; else takes nothing and returns the ms to wait. `peek` only answers.
   */
  take(installationId: number, ask: { spacingMs: number; budget: WriteBudget; keep: { minute: number; hour: number }; peek: boolean; now?: number }): Promise<number>;
}

/** A progress edit that a newer write of the same comment replaced before it was sent. */
export class WriteSuperseded extends Error {
  constructor(readonly key: string) {
    super(`superseded by a newer write of ${key}`);
    this.name = "WriteSuperseded";
  }
}

export interface GateOptions {
  /** A progress edit: yields to every other write and keeps the reserve. */
  progress?: boolean;
  /**
   * Budgeted apart (replies to people who started nothing, limited by the triggers): spaced like
   * every write and sent after the other waiting ones, but takes no token of the jobs' buckets.
   */
  apart?: boolean;
  /** What is written (a comment): a queued progress edit of the same key is dropped for a newer write. */
  key?: string;
}

interface Entry {
  progress: boolean;
  apart: boolean;
  key?: string;
  go(): Promise<void>;
  drop(err: Error): void;
}

interface Bucket {
  tokens: number;
  capacity: number;
  perMs: number;
}

/** Waits while only progress edits are queued are cut into steps this long, so other writes are not held up. */
const POLL_MS = 250;

/** Where a gate's budget lives when it is shared between processes. */
export interface SharedBudgetOption {
  store: SharedWriteBudget;
  installationId: number;
  /** Pass the gate's clock to the store (tests with a fake clock); by default the store's own time counts. */
  useClock?: boolean;
}

/**
 * Share one gate between the writers of one installation (jobs running side by side) so their
 * writes are spaced and budgeted together. Without `shared`, per process; with it, the spacing and
 * budget hold for every process of the deployment together.
 */
export class WriteGate {
  /** Writes started, by this gate (retries included). */
  started = 0;
  readonly budget: WriteBudget;
  private readonly minute: Bucket;
  private readonly hour: Bucket;
  private refilledAt: number;
  private lastStart = Number.NEGATIVE_INFINITY;
  private readonly urgent: Entry[] = [];
  private readonly apart: Entry[] = [];
  private readonly progress: Entry[] = [];
  /** The write whose task runs now (one at a time): `turn()` budgets by it. */
  private current: Entry | undefined;
  private pumping = false;

  constructor(
    readonly minSpacingMs = DEFAULT_WRITE_SPACING_MS,
    readonly clock: Clock = realClock,
    budget: Partial<WriteBudget> = {},
    private readonly shared?: SharedBudgetOption,
  ) {
    this.budget = { ...DEFAULT_WRITE_BUDGET, ...budget };
    const { minuteBurst, perMinute, perHour, hourBurst } = this.budget;
    this.minute = { tokens: minuteBurst, capacity: minuteBurst, perMs: perMinute / 60_000 };
    this.hour = { tokens: hourBurst, capacity: hourBurst, perMs: perHour / 3_600_000 };
    this.refilledAt = clock.now();
  }

  /**
   * Runs `task` once every write queued before it (progress edits: every other write) has settled.
   * `task` calls `turn()` before each request it sends.
   */
  run<T>(task: () => Promise<T>, options: GateOptions = {}): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (options.key !== undefined) this.dropQueuedProgress(options.key);
      const entry: Entry = {
        progress: options.progress === true,
        apart: options.apart === true && options.progress !== true,
        key: options.key,
        go: () => task().then(resolve, reject),
        drop: reject,
      };
      (entry.progress ? this.progress : entry.apart ? this.apart : this.urgent).push(entry);
      void this.pump();
    });
  }

  /** Inside `run`: waits until the next write may start (spacing and budget), and counts it started. */
  async turn(): Promise<void> {
    const apart = this.current?.apart === true;
    // Budgeted apart: spaced from this process's writes, and no token of the jobs' buckets, shared or not.
    if (this.shared && !apart) return this.sharedTurn();
    for (;;) {
      const wait = apart ? this.lastStart + this.minSpacingMs - this.clock.now() : this.waitMs(false);
      if (wait <= 0) break;
      await this.clock.sleep(wait);
    }
    this.take(apart);
  }

  /** Writes queued and not started. */
  get queued(): number {
    return this.urgent.length + this.apart.length + this.progress.length;
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      for (;;) {
        let entry = this.urgent.shift() ?? this.apart.shift();
        if (!entry && this.progress.length > 0) {
          // A shared budget that cannot answer (Redis away) only holds the progress edits back a step.
          const wait = this.shared ? await this.sharedWait(true, true).catch(() => POLL_MS) : this.waitMs(true);
          if (wait > 0) {
            // Checked again after a short step: a final edit arriving meanwhile goes first.
            await this.clock.sleep(Math.min(wait, POLL_MS));
            continue;
          }
          entry = this.progress.shift();
        }
        if (!entry) return;
        this.current = entry;
        await entry.go();
        this.current = undefined;
      }
    } finally {
      this.pumping = false;
    }
  }

  private async sharedTurn(): Promise<void> {
    for (;;) {
      const wait = await this.sharedWait(false, false);
      if (wait <= 0) break;
      await this.clock.sleep(Math.min(wait, POLL_MS * 4));
    }
    this.lastStart = this.clock.now();
    this.started += 1;
  }

  /** The shared budget's answer: ms to wait (0: `peek` false took the write). A progress edit keeps the reserve. */
  private sharedWait(progress: boolean, peek: boolean): Promise<number> {
    const { store, installationId, useClock } = this.shared!;
    const keep = progress ? this.budget.progressReserve : { minute: 0, hour: 0 };
    return store.take(installationId, { spacingMs: this.minSpacingMs, budget: this.budget, keep, peek, ...(useClock ? { now: this.clock.now() } : {}) });
  }

  private dropQueuedProgress(key: string): void {
    for (let i = this.progress.length - 1; i >= 0; i -= 1) {
      const entry = this.progress[i]!;
      if (entry.key !== key) continue;
      this.progress.splice(i, 1);
      entry.drop(new WriteSuperseded(key));
    }
  }

  private refill(): void {
    const now = this.clock.now();
    const gone = Math.max(0, now - this.refilledAt);
    this.refilledAt = now;
    for (const b of [this.minute, this.hour]) b.tokens = Math.min(b.capacity, b.tokens + gone * b.perMs);
  }

  /** Ms until a write (a progress edit: one that keeps the reserve) may start; 0 or less when it may now. */
  private waitMs(progress: boolean): number {
    this.refill();
    const reserve = this.budget.progressReserve;
    const need = (b: Bucket, keep: number) => {
      const missing = Math.min(b.capacity, 1 + (progress ? keep : 0)) - b.tokens;
      return missing <= 0 ? 0 : Math.ceil(missing / b.perMs);
    };
    const spacing = this.lastStart + this.minSpacingMs - this.clock.now();
    return Math.max(spacing, need(this.minute, reserve.minute), need(this.hour, reserve.hour));
  }

  private take(apart: boolean): void {
    this.refill();
    if (!apart) {
      this.minute.tokens -= 1;
      this.hour.tokens -= 1;
    }
    this.lastStart = this.clock.now();
    this.started += 1;
  }
}
