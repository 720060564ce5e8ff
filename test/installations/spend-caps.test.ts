import { describe, expect, it } from "vitest";
import { checkCaps } from "../../src/installations/limits.js";
import { capNotice, capRefusal, nearestCap, nextMonthStart, utcDay } from "../../src/installations/spend-caps.js";
import type { UsageLedger } from "../../src/installations/types.js";

/** A ledger of this month's costs: per repository of installation 1, and installation 1's in all (other repositories included). */
function ledgerOf(costs: { repo?: number; installation?: number }): UsageLedger & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    recordStart: () => Promise.reject(new Error("the caps must not record")),
    recordCost: () => Promise.reject(new Error("the caps must not record")),
    jobsSince: () => Promise.reject(new Error("the caps count no jobs")),
    async costSince(installationId, since, repo) {
      asked.push(`${installationId} ${new Date(since).toISOString()} ${repo ?? "*"}`);
      return repo === undefined ? (costs.installation ?? costs.repo ?? 0) : (costs.repo ?? 0);
    },
    async close() {},
  };
}

const NOW = Date.UTC(2026, 11, 6, 21, 30); // 6 December 2026
const SCOPE = { installationId: 1, repo: "octo/app" };

describe("the month the caps count", () => {
  it.each([
    ["mid-December: 1 January of next year", NOW, Date.UTC(2027, 0, 1)],
    ["the last millisecond of a month: the next month's first", Date.UTC(2026, 10, 30, 23, 59, 59, 999), Date.UTC(2026, 11, 1)],
    ["the first millisecond of a month: the month after", Date.UTC(2026, 11, 1), Date.UTC(2027, 0, 1)],
    ["February of a leap year: 1 March", Date.UTC(2028, 1, 29, 12), Date.UTC(2028, 2, 1)],
  ])("resets %s", (_what, now, expected) => {
    expect(nextMonthStart(now)).toBe(expected);
  });

  it("names a UTC day in words, whatever the local time zone", () => {
    expect(utcDay(Date.UTC(2027, 0, 1))).toBe("1 January 2027");
    expect(utcDay(Date.UTC(2026, 8, 30, 23, 59))).toBe("30 September 2026");
  });

  it("counts from the first of the month (UTC), the repository's and the installation's spend", async () => {
    const ledger = ledgerOf({ repo: 1, installation: 2 });
    await nearestCap(ledger, { ...SCOPE, repoCapUsd: 10 }, 20, NOW);
    expect(ledger.asked).toEqual(["1 2026-12-01T00:00:00.000Z octo/app", "1 2026-12-01T00:00:00.000Z *"]);
  });
});

describe("the 80 % notice and the refusal at 100 %", () => {
  const standing = (repo: number, repoCapUsd: number | null, installation?: number, installationCap?: number) =>
    nearestCap(ledgerOf({ repo, installation }), { ...SCOPE, repoCapUsd }, installationCap, NOW);

  it("says nothing below 80 %, and nothing without a cap", async () => {
    expect(capNotice(await standing(39.99, 50))).toBeUndefined();
    expect(capRefusal(await standing(39.99, 50))).toBeUndefined();
    expect(await standing(1000, null)).toBeUndefined();
  });

  it("at 80 % and up to 100 %, a notice with the share (rounded down), the amounts, the key and the reset day", async () => {
    expect(capNotice(await standing(40, 50))).toBe(
      "⚠️ This repository has used 80 % of its monthly budget ($40.00 of $50.00, `budgets.monthlyUsd`); it resets on 1 January 2027 (UTC).",
    );
    expect(capNotice(await standing(42, 50))).toBe(
      "⚠️ This repository has used 84 % of its monthly budget ($42.00 of $50.00, `budgets.monthlyUsd`); it resets on 1 January 2027 (UTC).",
    );
    expect(capNotice(await standing(49.995, 50))).toMatch(/^⚠️ This repository has used 99 % /);
    expect(capRefusal(await standing(49.995, 50))).toBeUndefined();
  });

  it("at 100 % or more, the refusal instead of the notice", async () => {
    const at = await standing(50, 50);
    expect(capNotice(at)).toBeUndefined();
    expect(capRefusal(at)).toBe("this repository has used its monthly budget ($50.00 of $50.00, `budgets.monthlyUsd`); new jobs start again on 1 January 2027 (UTC)");
    expect(capRefusal(await standing(61.234, 50))).toBe(
      "this repository has used its monthly budget ($61.23 of $50.00, `budgets.monthlyUsd`); new jobs start again on 1 January 2027 (UTC)",
    );
  });

  it("the nearer cap speaks: the installation's when its share is larger, the repository's when its own is", async () => {
    // The repository at 60 % of its $50; the installation at 90 % of its $100.
    expect(capNotice(await standing(30, 50, 90, 100))).toBe(
      "⚠️ This installation has used 90 % of its monthly budget ($90.00 of $100.00, `CREWBOT_MONTHLY_BUDGET_USD`); it resets on 1 January 2027 (UTC).",
    );
    // The repository at 100 % of its $20; the installation at 50 %.
    expect(capRefusal(await standing(20, 20, 50, 100))).toMatch(/^this repository has used its monthly budget \(\$20\.00 of \$20\.00/);
  });

  it("a repository's cap above the installation's: the installation's counts, and its words say so", async () => {
    expect(capRefusal(await standing(100, 500, 100, 100))).toBe(
      "this installation has used its monthly budget ($100.00 of $100.00, `CREWBOT_MONTHLY_BUDGET_USD`; this repository's `budgets.monthlyUsd` ($500.00) is above it, so the installation's counts); new jobs start again on 1 January 2027 (UTC)",
    );
    expect(capNotice(await standing(85, 500, 85, 100))).toBe(
      "⚠️ This installation has used 85 % of its monthly budget ($85.00 of $100.00, `CREWBOT_MONTHLY_BUDGET_USD`; this repository's `budgets.monthlyUsd` ($500.00) is above it, so the installation's counts); it resets on 1 January 2027 (UTC).",
    );
  });

  it("before the repository's config is read only the installation's cap counts; a repository's cap needs its repository", async () => {
    expect(capRefusal(await nearestCap(ledgerOf({ repo: 60, installation: 60 }), { installationId: 1 }, 100, NOW))).toBeUndefined();
    expect(await nearestCap(ledgerOf({ repo: 60 }), { installationId: 1, repoCapUsd: 50 }, undefined, NOW)).toBeUndefined();
  });

  it("checkCaps: a cap reached is a capped limit; near it, a notice", async () => {
    expect(await checkCaps({ monthlyBudgetUsd: 10 }, ledgerOf({ repo: 1, installation: 10 }), { ...SCOPE, repoCapUsd: null }, NOW)).toEqual({
      reached: { reason: "this installation has used its monthly budget ($10.00 of $10.00, `CREWBOT_MONTHLY_BUDGET_USD`); new jobs start again on 1 January 2027 (UTC)", capped: true },
    });
    expect(await checkCaps({}, ledgerOf({ repo: 8 }), { ...SCOPE, repoCapUsd: 10 }, NOW)).toEqual({
      notice: "⚠️ This repository has used 80 % of its monthly budget ($8.00 of $10.00, `budgets.monthlyUsd`); it resets on 1 January 2027 (UTC).",
    });
    expect(await checkCaps({}, ledgerOf({ repo: 7 }), { ...SCOPE, repoCapUsd: 10 }, NOW)).toEqual({});
  });
});
