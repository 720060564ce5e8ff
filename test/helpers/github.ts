/** Test plumbing for code that talks to GitHub: a real ProbotOctokit against nock, and a fake clock. */
import nock from "nock";
import { ProbotOctokit } from "probot";
import { afterEach, beforeEach, expect } from "vitest";
import type { Clock } from "../../src/report/github-writer.js";
// Every request nock answers is checked against GitHub's own description; refusals fail the test.
import "./github-refusals.js";

export const API = "https://api.github.com";
export const TOKEN = `ghs_${"T0k3n".repeat(8)}`;

// The object form of `defaults` does not switch throttling off in Probot 14.
const TestOctokit = ProbotOctokit.defaults((options: Record<string, unknown>) => ({
  ...options,
  retry: { enabled: false },
  throttle: { enabled: false },
}));

export const newOctokit = () => new TestOctokit({ auth: TOKEN });

const LOCAL = /^(127\.0\.0\.1|localhost)$/;

/** Fails the test on any request nock did not expect, and on any expected request not made. */
export function useNock(): void {
  const unmatched: string[] = [];
  const onNoMatch = (req: { method?: string; path?: string; href?: string; hostname?: string }) => {
    if (req.hostname && LOCAL.test(req.hostname)) return;
    unmatched.push(`${req.method} ${req.href ?? req.path}`);
  };
  beforeEach(() => {
    nock.disableNetConnect();
    // Local stand-ins (the fake model, the git server, the app's own server) are real servers.
    nock.enableNetConnect((host: string) => LOCAL.test(host.replace(/:\d+$/, "")));
    unmatched.length = 0;
    nock.emitter.on("no match", onNoMatch);
  });
  afterEach(() => {
    nock.emitter.off("no match", onNoMatch);
    const pending = nock.pendingMocks();
    nock.cleanAll();
    nock.enableNetConnect();
    expect(unmatched, "requests nobody expected").toEqual([]);
    expect(pending, "expected requests never made").toEqual([]);
  });
}

/** Time that moves only when someone sleeps: N writes spaced 1 s apart take N-1 fake seconds, instantly. */
export interface FakeClock extends Clock {
  sleeps: number[];
  advance(ms: number): void;
}

export function fakeClock(start = 1_700_000_000_000): FakeClock {
  let t = start;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => t,
    sleep: async (ms) => {
      sleeps.push(ms);
      t += ms;
    },
    advance: (ms) => {
      t += ms;
    },
  };
}

/** Time that moves only when the test says so; sleepers wake when it passes their time. */
export interface ManualClock extends Clock {
  /** Sleeps not yet woken. */
  readonly waiting: number;
  advance(ms: number): Promise<void>;
}

export function manualClock(start = 1_700_000_000_000): ManualClock {
  let t = start;
  let sleepers: Array<{ at: number; wake: () => void }> = [];
  return {
    get waiting() {
      return sleepers.length;
    },
    now: () => t,
    sleep: (ms) => new Promise<void>((wake) => sleepers.push({ at: t + ms, wake })),
    advance: async (ms) => {
      t += ms;
      const due = sleepers.filter((s) => s.at <= t);
      sleepers = sleepers.filter((s) => s.at > t);
      for (const s of due) s.wake();
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}
