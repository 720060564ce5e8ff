/**
 * The limits that protect GitHub and people, on Redis, so they hold for every process together:
 * each installation's write budget (spacing and the two token buckets of `report/write-gate.ts`),
 * each person's command bucket, and the delivery ids already seen. Each decision is one Lua script,
 * atomic across processes; times are the Redis server's own (one clock for all), unless a test
 * passes its fake clock's.
 *
 * Keys: `<prefix>:writes:<installation>`, `<prefix>:commands:<installation>/<login>` (hashes that
 * expire once full again), `<prefix>:webhook:<delivery id>` (expires after DELIVERY_TTL_MS; the queue's own
 * `<prefix>:delivery:<id>` maps a delivery to its job).
 */
import { Redis } from "ioredis";
import type { SharedWriteBudget, WriteBudget } from "../../report/write-gate.js";
import type { AdmissionGate, RateLimit, RateVerdict } from "../../triggers/admission.js";
import type { CounterStore } from "../../triggers/stranger-replies.js";

/** GitHub lets an app redeliver a delivery of the last three days: one is remembered that long. */
export const DELIVERY_TTL_MS = 3 * 24 * 3_600_000;

/** Shared by both scripts: the time in ms, ARGV[1] when above 0, else the server's clock. */
const NOW = `
local now = tonumber(ARGV[1])
if now <= 0 then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
`;

/**
 * KEYS[1]: the installation's hash (m, h: tokens; at: refilled at; last: last start). ARGV: now,
 * spacing, minute capacity, minute per ms, hour capacity, hour per ms, keep minute, keep hour,
 * peek 0/1. Returns 0 when a write may start now (taken unless peek), else the ms to wait.
 */
const TAKE_WRITE = `${NOW}
local mcap, mrate, hcap, hrate = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local v = redis.call('HMGET', KEYS[1], 'm', 'h', 'at', 'last')
local m = tonumber(v[1]) or mcap
local h = tonumber(v[2]) or hcap
local at = tonumber(v[3]) or now
local gone = now - at
if gone > 0 then
  m = math.min(mcap, m + gone * mrate)
  h = math.min(hcap, h + gone * hrate)
  at = now
end
local function need(tokens, cap, rate, keep)
  local missing = math.min(cap, 1 + keep) - tokens
  if missing <= 0 then return 0 end
  return math.ceil(missing / rate)
end
local wait = math.max(need(m, mcap, mrate, tonumber(ARGV[7])), need(h, hcap, hrate, tonumber(ARGV[8])))
if v[4] then wait = math.max(wait, tonumber(v[4]) + tonumber(ARGV[2]) - now) end
if wait > 0 then return math.ceil(wait) end
if ARGV[9] == '1' then return 0 end
redis.call('HSET', KEYS[1], 'm', tostring(m - 1), 'h', tostring(h - 1), 'at', tostring(at), 'last', tostring(now))
redis.call('PEXPIRE', KEYS[1], 2 * 3600000)
return 0
`;

/**
 * KEYS[1]: the person's hash (t: tokens, at, answered). ARGV: now, burst, per ms, take 0/1.
 * Returns {verdict, ms until a token}; without take, only the wait.
 */
const TAKE_COMMAND = `${NOW}
local burst, rate = tonumber(ARGV[2]), tonumber(ARGV[3])
local v = redis.call('HMGET', KEYS[1], 't', 'at', 'answered')
local t = tonumber(v[1]) or burst
local at = tonumber(v[2]) or now
local answered = v[3] == '1'
if now > at then
  t = math.min(burst, t + (now - at) * rate)
  at = now
end
local verdict = ''
if ARGV[4] == '1' then
  if t >= 1 then
    t = t - 1
    answered = false
    verdict = 'go'
  elseif answered then
    verdict = 'drop'
  else
    answered = true
    verdict = 'slow-down'
  end
  redis.call('HSET', KEYS[1], 't', tostring(t), 'at', tostring(at), 'answered', answered and '1' or '0')
  redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate) + 60000)
end
local wait = 0
if t < 1 then wait = math.ceil((1 - t) / rate) end
return {verdict, wait}
`;

type Scripted = Record<"crewbotTakeWrite" | "crewbotTakeCommand" | "crewbotCount", (...args: string[]) => Promise<unknown>>;

/** INCR with the window set on the first add: a fixed window, in one step. */
const COUNT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n
`;

export interface SharedLimitsOptions {
  url: string;
  prefix: string;
  /** A fake clock's time for the command buckets (tests); default the server's. */
  now?: () => number;
}

export class RedisSharedLimits implements SharedWriteBudget {
  private readonly redis: Redis;
  private readonly prefix: string;
  private readonly now: () => number;
  private closed: Promise<void> | undefined;

  constructor(opts: SharedLimitsOptions) {
    this.prefix = opts.prefix;
    this.now = opts.now ?? (() => 0);
    this.redis = new Redis(opts.url, { lazyConnect: false });
    this.redis.on("error", () => {}); // a lost server shows up as the failing call's error
    this.redis.defineCommand("crewbotTakeWrite", { numberOfKeys: 1, lua: TAKE_WRITE });
    this.redis.defineCommand("crewbotTakeCommand", { numberOfKeys: 1, lua: TAKE_COMMAND });
    this.redis.defineCommand("crewbotCount", { numberOfKeys: 1, lua: COUNT });
  }

  async take(installationId: number, ask: { spacingMs: number; budget: WriteBudget; keep: { minute: number; hour: number }; peek: boolean; now?: number }): Promise<number> {
    const { budget, keep } = ask;
    const args = [ask.now ?? 0, ask.spacingMs, budget.minuteBurst, budget.perMinute / 60_000, budget.hourBurst, budget.perHour / 3_600_000, keep.minute, keep.hour, ask.peek ? 1 : 0];
    const run = (this.redis as unknown as Scripted).crewbotTakeWrite;
    return Number(await run.call(this.redis, `${this.prefix}:writes:${installationId}`, ...args.map(String)));
  }

  /** The per-person command limits and delivery dedupe every process shares. */
  admission(limit: RateLimit): AdmissionGate {
    const bucket = async (installationId: number, login: string, take: boolean) => {
      const run = (this.redis as unknown as Scripted).crewbotTakeCommand;
      const key = `${this.prefix}:commands:${installationId}/${login.toLowerCase()}`;
      return (await run.call(this.redis, key, String(this.now()), String(limit.burst), String(limit.perMinute / 60_000), take ? "1" : "0")) as [string, number];
    };
    return {
      limit,
      newDelivery: async (id) => (await this.redis.set(this.deliveryKey(id), "1", "PX", DELIVERY_TTL_MS, "NX")) === "OK",
      forget: async (id) => void (await this.redis.del(this.deliveryKey(id))),
      take: async (installationId, login) => (await bucket(installationId, login, true))[0] as RateVerdict,
      waitSeconds: async (installationId, login) => Math.ceil(Number((await bucket(installationId, login, false))[1]) / 1000),
    };
  }

  /** The fixed-window counts behind the replies to people who started nothing, one for every process. */
  replyCounters(): CounterStore {
    return {
      increment: async (key, windowMs) => {
        const run = (this.redis as unknown as Scripted).crewbotCount;
        return Number(await run.call(this.redis, `${this.prefix}:${key.replace(/^crewbot:/, "")}`, String(windowMs)));
      },
    };
  }

  async close(): Promise<void> {
    this.closed ??= this.redis.quit().then(
      () => undefined,
      () => this.redis.disconnect(),
    );
    return this.closed;
  }

  private deliveryKey(id: string): string {
    return `${this.prefix}:webhook:${id}`;
  }
}
