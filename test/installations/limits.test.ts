import { describe, expect, it } from "vitest";
import { checkLimits, monthStart, operatorLimits, type OperatorLimits } from "../../src/installations/limits.js";
import type { UsageLedger } from "../../src/installations/types.js";

const HOUR = 3_600_000;

describe("operatorLimits", () => {
  const DEFAULTS = { editIntervalMs: 10_000, commandsBurst: 20, commandsPerMinute: 10, retentionDays: 30 };

  it("defaults to 2 per installation, 4 in all, no hourly limit and no budget; 10 s between edits, 20 commands then 10 a minute, 30 days kept", () => {
    const limits = operatorLimits({});
    expect(limits).toEqual({ perInstallation: 2, perWorker: 4, global: undefined, jobsPerHour: undefined, monthlyBudgetUsd: undefined, ...DEFAULTS });
  });

  it.each([
    ["CREWBOT_INSTALLATION_CONCURRENCY", "3", { perInstallation: 3 }],
    ["CREWBOT_GLOBAL_CONCURRENCY", "10", { global: 10 }],
    ["CREWBOT_WORKER_CONCURRENCY", "6", { perWorker: 6 }],
    ["CREWBOT_JOBS_PER_HOUR", "20", { jobsPerHour: 20 }],
    ["CREWBOT_MONTHLY_BUDGET_USD", "50", { monthlyBudgetUsd: 50 }],
    ["CREWBOT_MONTHLY_BUDGET_USD", "12.5", { monthlyBudgetUsd: 12.5 }],
    ["CREWBOT_JOBS_PER_HOUR", " 7 ", { jobsPerHour: 7 }],
    ["CREWBOT_EDIT_INTERVAL_S", "30", { editIntervalMs: 30_000 }],
    ["CREWBOT_EDIT_INTERVAL_S", "2.5", { editIntervalMs: 2500 }],
    ["CREWBOT_COMMANDS_BURST", "50", { commandsBurst: 50 }],
    ["CREWBOT_COMMANDS_PER_MINUTE", "3", { commandsPerMinute: 3 }],
    ["CREWBOT_COMMANDS_PER_MINUTE", "0.5", { commandsPerMinute: 0.5 }],
    ["CREWBOT_RETENTION_DAYS", "7", { retentionDays: 7 }],
    ["CREWBOT_RETENTION_DAYS", "0.5", { retentionDays: 0.5 }],
  ])("reads %s=%j", (name, value, expected) => {
    const base = { perInstallation: 2, perWorker: 4, global: undefined, jobsPerHour: undefined, monthlyBudgetUsd: undefined, ...DEFAULTS };
    expect(operatorLimits({ [name]: value })).toEqual({ ...base, ...expected });
  });

  it("reads all five at once", () => {
    expect(
      operatorLimits({
        CREWBOT_INSTALLATION_CONCURRENCY: "1",
        CREWBOT_WORKER_CONCURRENCY: "3",
        CREWBOT_GLOBAL_CONCURRENCY: "8",
        CREWBOT_JOBS_PER_HOUR: "5",
        CREWBOT_MONTHLY_BUDGET_USD: "0.25",
      }),
    ).toEqual({ perInstallation: 1, perWorker: 3, global: 8, jobsPerHour: 5, monthlyBudgetUsd: 0.25, ...DEFAULTS });
  });

  const ALL = ["CREWBOT_INSTALLATION_CONCURRENCY", "CREWBOT_WORKER_CONCURRENCY", "CREWBOT_GLOBAL_CONCURRENCY", "CREWBOT_JOBS_PER_HOUR", "CREWBOT_MONTHLY_BUDGET_USD"];
  const NEW = ["CREWBOT_EDIT_INTERVAL_S", "CREWBOT_COMMANDS_BURST", "CREWBOT_COMMANDS_PER_MINUTE", "CREWBOT_RETENTION_DAYS"];
  it.each([...ALL, ...NEW])(
    "takes an empty %s as unset",
    (name) => {
      expect(operatorLimits({ [name]: "" })).toEqual(operatorLimits({}));
      expect(operatorLimits({ [name]: "   " })).toEqual(operatorLimits({}));
    },
  );

  const integers = ["CREWBOT_INSTALLATION_CONCURRENCY", "CREWBOT_WORKER_CONCURRENCY", "CREWBOT_GLOBAL_CONCURRENCY", "CREWBOT_JOBS_PER_HOUR", "CREWBOT_COMMANDS_BURST"];
  const bad = ["0", "-1", "x", "1.5", "Infinity", "NaN"];
  it.each(integers.flatMap((name) => bad.map((value) => [name, value] as const)))("refuses %s=%j, naming the variable", (name, value) => {
    expect(() => operatorLimits({ [name]: value })).toThrow(`${name} must be a whole number above 0, got "${value}"`);
  });

  const numbers = ["CREWBOT_MONTHLY_BUDGET_USD", "CREWBOT_EDIT_INTERVAL_S", "CREWBOT_COMMANDS_PER_MINUTE", "CREWBOT_RETENTION_DAYS"];
  it.each(numbers.flatMap((name) => ["0", "-1", "x", "-0.5", "Infinity", "10s"].map((value) => [name, value] as const)))(
    "refuses %s=%j, naming the variable",
    (name, value) => {
      expect(() => operatorLimits({ [name]: value })).toThrow(`${name} must be a number above 0, got "${value}"`);
    },
  );

  it("ignores unrelated variables", () => {
    expect(operatorLimits({ PORT: "0", CREWBOT_OTHER: "x" })).toEqual(operatorLimits({}));
  });
});

describe("monthStart", () => {
  it.each([
    ["the middle of a month", Date.UTC(2024, 4, 17, 13, 45), Date.UTC(2024, 4, 1)],
    ["its first millisecond", Date.UTC(2024, 4, 1), Date.UTC(2024, 4, 1)],
    ["its last millisecond", Date.UTC(2024, 5, 1) - 1, Date.UTC(2024, 4, 1)],
    ["the end of December", Date.UTC(2024, 11, 31, 23, 59, 59, 999), Date.UTC(2024, 11, 1)],
    ["the start of January", Date.UTC(2025, 0, 1), Date.UTC(2025, 0, 1)],
    ["the middle of January", Date.UTC(2025, 0, 15, 8), Date.UTC(2025, 0, 1)],
    ["a leap day", Date.UTC(2024, 1, 29, 12), Date.UTC(2024, 1, 1)],
  ])("is the first of the UTC month for %s", (_what, now, expected) => {
    expect(monthStart(now)).toBe(expected);
    expect(new Date(monthStart(now)).toISOString()).toBe(new Date(expected).toISOString());
  });
});

/** A ledger that answers from a list of job starts and costs, and records what it was asked. */
function fakeLedger(entries: Array<{ installationId?: number; at: number; usd?: number }> = []) {
  const asked: Array<{ what: "jobs" | "cost"; installationId: number; since: number }> = [];
  const ledger: UsageLedger = {
    async recordStart() {
      throw new Error("limitReached must not record");
    },
    async recordCost() {
      throw new Error("limitReached must not record");
    },
    async jobsSince(installationId, since) {
      asked.push({ what: "jobs", installationId, since });
      return entries.filter((e) => (e.installationId ?? 1) === installationId && e.at >= since).length;
    },
    async costSince(installationId, since) {
      asked.push({ what: "cost", installationId, since });
      return entries.filter((e) => (e.installationId ?? 1) === installationId && e.at >= since).reduce((s, e) => s + (e.usd ?? 0), 0);
    },
    async close() {},
  };
  return { ledger, asked };
}

const NOW = Date.UTC(2024, 4, 17, 12, 0, 0);
const limits = (o: Partial<OperatorLimits>): OperatorLimits => ({ perInstallation: 2, perWorker: 4, ...o });
const PER_HOUR = (n: number) => `this installation reached its limit of ${n} jobs per hour (CREWBOT_JOBS_PER_HOUR); try again later`;

/** The reason a new job of the installation does not start, as its comment names it; undefined when it starts. */
const limitReached = async (l: OperatorLimits, ledger: UsageLedger, installationId: number, now?: number) => (await checkLimits(l, ledger, { installationId }, now)).reached?.reason;

describe("checkLimits", () => {
  it("never stops a job, and asks nothing, without limits", async () => {
    const { ledger, asked } = fakeLedger(Array.from({ length: 100 }, () => ({ at: NOW - 1, usd: 100 })));
    expect(await limitReached(limits({}), ledger, 1, NOW)).toBeUndefined();
    expect(asked).toEqual([]);
  });

  it("lets a job start under the hourly limit and stops it at the limit", async () => {
    const under = fakeLedger([{ at: NOW - 10 }, { at: NOW - 20 }]);
    expect(await limitReached(limits({ jobsPerHour: 3 }), under.ledger, 1, NOW)).toBeUndefined();
    expect(under.asked).toEqual([{ what: "jobs", installationId: 1, since: NOW - HOUR }]);

    const at = fakeLedger([{ at: NOW - 10 }, { at: NOW - 20 }, { at: NOW - 30 }]);
    expect(await limitReached(limits({ jobsPerHour: 3 }), at.ledger, 1, NOW)).toBe(PER_HOUR(3));

    const over = fakeLedger([{ at: NOW - 10 }, { at: NOW - 20 }, { at: NOW - 30 }, { at: NOW - 40 }]);
    expect(await limitReached(limits({ jobsPerHour: 3 }), over.ledger, 1, NOW)).toBe(PER_HOUR(3));
  });

  it("counts a sliding hour, not the clock hour", async () => {
    // Two jobs: one 59 minutes ago (in the previous clock hour), one exactly an hour ago.
    const { ledger } = fakeLedger([{ at: NOW - 59 * 60_000 }, { at: NOW - HOUR }]);
    expect(await limitReached(limits({ jobsPerHour: 2 }), ledger, 1, NOW)).toBe(PER_HOUR(2));
    // A millisecond later the older one has left the window.
    expect(await limitReached(limits({ jobsPerHour: 2 }), ledger, 1, NOW + 1)).toBeUndefined();
    // A minute later only the one from 59 minutes before is in, then none.
    expect(await limitReached(limits({ jobsPerHour: 1 }), ledger, 1, NOW + HOUR - 59 * 60_000 + 1)).toBeUndefined();
    expect(await limitReached(limits({ jobsPerHour: 1 }), ledger, 1, NOW + HOUR - 59 * 60_000)).toBe(PER_HOUR(1));
  });

  it("counts the asking installation only", async () => {
    const { ledger, asked } = fakeLedger([{ installationId: 2, at: NOW - 1 }]);
    expect(await limitReached(limits({ jobsPerHour: 1 }), ledger, 1, NOW)).toBeUndefined();
    expect(await limitReached(limits({ jobsPerHour: 1 }), ledger, 2, NOW)).toBe(PER_HOUR(1));
    expect(asked.map((a) => a.installationId)).toEqual([1, 2]);
  });

  it("lets a job start under the monthly budget and stops it at the budget, naming both amounts", async () => {
    const under = fakeLedger([{ at: NOW - 1000, usd: 9.99 }]);
    expect(await limitReached(limits({ monthlyBudgetUsd: 10 }), under.ledger, 1, NOW)).toBeUndefined();
    expect(under.asked).toEqual([{ what: "cost", installationId: 1, since: Date.UTC(2024, 4, 1) }]);

    const at = fakeLedger([{ at: NOW - 1000, usd: 4 }, { at: NOW - 2000, usd: 6 }]);
    expect(await limitReached(limits({ monthlyBudgetUsd: 10 }), at.ledger, 1, NOW)).toBe(
      "this installation has used its monthly budget ($10.00 of $10.00, `CREWBOT_MONTHLY_BUDGET_USD`); new jobs start again on 1 June 2024 (UTC)",
    );

    const over = fakeLedger([{ at: NOW - 1000, usd: 12.3456 }]);
    expect(await limitReached(limits({ monthlyBudgetUsd: 7.5 }), over.ledger, 1, NOW)).toBe(
      "this installation has used its monthly budget ($12.35 of $7.50, `CREWBOT_MONTHLY_BUDGET_USD`); new jobs start again on 1 June 2024 (UTC)",
    );
  });

  it("counts the budget from the first of the UTC month: last month's spending does not count", async () => {
    const firstOfMonth = Date.UTC(2025, 0, 1);
    const { ledger, asked } = fakeLedger([{ at: firstOfMonth - 1, usd: 100 }, { at: firstOfMonth, usd: 1 }]);
    expect(await limitReached(limits({ monthlyBudgetUsd: 2 }), ledger, 1, firstOfMonth + 5 * HOUR)).toBeUndefined();
    expect(asked[0]!.since).toBe(firstOfMonth);
    expect(await limitReached(limits({ monthlyBudgetUsd: 2 }), ledger, 1, firstOfMonth - 2)).toBe(
      "this installation has used its monthly budget ($101.00 of $2.00, `CREWBOT_MONTHLY_BUDGET_USD`); new jobs start again on 1 January 2025 (UTC)",
    );
  });

  it("names the hourly limit first when both are reached, and the budget when only it is", async () => {
    const { ledger } = fakeLedger([{ at: NOW - 1, usd: 5 }]);
    expect(await limitReached(limits({ jobsPerHour: 1, monthlyBudgetUsd: 5 }), ledger, 1, NOW)).toBe(PER_HOUR(1));
    expect(await limitReached(limits({ jobsPerHour: 2, monthlyBudgetUsd: 5 }), ledger, 1, NOW)).toMatch(/^this installation has used its monthly budget \(\$5\.00 of \$5\.00/);
    expect(await limitReached(limits({ jobsPerHour: 2, monthlyBudgetUsd: 6 }), ledger, 1, NOW)).toBeUndefined();
  });

  it("uses the current time by default", async () => {
    const { ledger, asked } = fakeLedger();
    const before = Date.now();
    await limitReached(limits({ jobsPerHour: 1, monthlyBudgetUsd: 1 }), ledger, 1);
    const after = Date.now();
    expect(asked[0]!.since).toBeGreaterThanOrEqual(before - HOUR);
    expect(asked[0]!.since).toBeLessThanOrEqual(after - HOUR);
    expect(asked[1]!.since).toBe(monthStart(after));
  });
});
