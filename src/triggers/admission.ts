/**
 * What the comment handlers check before any request to GitHub, in memory: a delivery seen a
 * moment ago (GitHub's redelivery, or the same delivery twice at once) is dropped before the
 * permission lookup, and one person's commands on an installation are rate-limited by a token
 * bucket (`CREWBOT_COMMANDS_BURST` at once, then `CREWBOT_COMMANDS_PER_MINUTE`). Both are per process; the queue still drops a duplicate delivery across processes.
 */

/** Deliveries remembered, newest last; older ones are forgotten first. */
const MAX_DELIVERIES = 10_000;
/** Buckets kept; past this, full (idle) buckets are dropped, then the oldest. */
const MAX_BUCKETS = 10_000;

export interface RateLimit {
  /** Commands one person may give at once on one installation (`CREWBOT_COMMANDS_BURST`). */
  burst: number;
  /** Then this many a minute (`CREWBOT_COMMANDS_PER_MINUTE`). */
  perMinute: number;
}

/**
 * Twenty commands at once, then ten a minute: a maintainer triaging a backlog (a `/plan` on each of
 * a dozen issues) is never refused, a script firing hundreds is.
 */
export const DEFAULT_RATE_LIMIT: RateLimit = { burst: 20, perMinute: 10 };

/** The operator's setting (`operatorLimits`), the defaults where unset. */
export function commandRateLimit(limits: { commandsBurst?: number; commandsPerMinute?: number }): RateLimit {
  return { burst: limits.commandsBurst ?? DEFAULT_RATE_LIMIT.burst, perMinute: limits.commandsPerMinute ?? DEFAULT_RATE_LIMIT.perMinute };
}

const refillMs = (limit: RateLimit) => 60_000 / limit.perMinute;

/** `go`: run it; `slow-down`: refuse with one answer; `drop`: refuse silently (already answered). */
export type RateVerdict = "go" | "slow-down" | "drop";

interface Bucket {
  tokens: number;
  at: number;
  /** The "slow down" answer was given since the bucket last had a token. */
  answered: boolean;
}

export class Admission {
  private readonly deliveries = new Set<string>();
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    readonly limit: RateLimit = DEFAULT_RATE_LIMIT,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * True the first time a delivery id is seen; false for a redelivery, including one that arrives
   * while the first is still being handled. Synchronous, so two concurrent deliveries cannot both pass.
   */
  firstDelivery(id: string): boolean {
    if (this.deliveries.has(id)) return false;
    this.deliveries.add(id);
    if (this.deliveries.size > MAX_DELIVERIES) this.deliveries.delete(this.deliveries.values().next().value!);
    return true;
  }

  /** A delivery whose handling failed: GitHub's redelivery of it is handled again. */
  forget(id: string): void {
    this.deliveries.delete(id);
  }

  /** Takes a token for one command of `login` on the installation. */
  take(installationId: number, login: string): RateVerdict {
    const key = `${installationId}/${login.toLowerCase()}`;
    const now = this.now();
    const bucket = this.refilled(this.buckets.get(key), now);
    this.buckets.delete(key); // re-inserted: the map stays in least-recently-used order
    this.buckets.set(key, bucket);
    this.trim(now);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      bucket.answered = false;
      return "go";
    }
    if (bucket.answered) return "drop";
    bucket.answered = true;
    return "slow-down";
  }

  /** Seconds until `login` may give a command again. */
  waitSeconds(installationId: number, login: string): number {
    const bucket = this.buckets.get(`${installationId}/${login.toLowerCase()}`);
    if (!bucket) return 0;
    const missing = 1 - this.refilled(bucket, this.now()).tokens;
    return missing <= 0 ? 0 : Math.ceil((missing * refillMs(this.limit)) / 1000);
  }

  private refilled(bucket: Bucket | undefined, now: number): Bucket {
    if (!bucket) return { tokens: this.limit.burst, at: now, answered: false };
    const gained = Math.max(0, now - bucket.at) / refillMs(this.limit);
    bucket.tokens = Math.min(this.limit.burst, bucket.tokens + gained);
    bucket.at = now;
    return bucket;
  }

  private trim(now: number): void {
    if (this.buckets.size <= MAX_BUCKETS) return;
    for (const [key, bucket] of this.buckets) {
      if (this.refilled(bucket, now).tokens >= this.limit.burst) this.buckets.delete(key);
    }
    while (this.buckets.size > MAX_BUCKETS) this.buckets.delete(this.buckets.keys().next().value!);
  }
}

/** The one answer to a person over the rate limit: what the limit is, how long to wait, that nothing ran. */
export function renderSlowDown(login: string, seconds: number, limit: RateLimit): string {
  const perMinute = Number.isInteger(limit.perMinute) ? String(limit.perMinute) : limit.perMinute.toFixed(1);
  return (
    `Slow down, @\u200B${login.replace(/[^A-Za-z0-9_.[\]-]/g, "").slice(0, 60)}: crewbot takes at most ${limit.burst} commands at once from one person, then ${perMinute} a minute. ` +
    `This command and any more in the next ${Math.max(1, seconds)} s were not started; nothing else will be said about them.`
  );
}

/** What the handlers ask: this process's Admission (the embedded default), or one every process shares (Redis). */
export interface AdmissionGate {
  readonly limit: RateLimit;
  /** True the first time any process asked about this delivery id (named apart from Admission's synchronous `firstDelivery`). */
  newDelivery(id: string): Promise<boolean>;
  /** A delivery whose handling failed: GitHub's redelivery of it is handled again. */
  forget(id: string): Promise<void>;
  take(installationId: number, login: string): Promise<RateVerdict>;
  waitSeconds(installationId: number, login: string): Promise<number>;
}

/** The in-memory Admission behind the handlers' interface: one process. */
export function localAdmission(admission: Admission): AdmissionGate {
  return {
    limit: admission.limit,
    newDelivery: async (id) => admission.firstDelivery(id),
    forget: async (id) => admission.forget(id),
    take: async (installationId, login) => admission.take(installationId, login),
    waitSeconds: async (installationId, login) => admission.waitSeconds(installationId, login),
  };
}
