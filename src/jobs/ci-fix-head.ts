/**
 * A ci-fix round covers the head, not one suite: GitHub Actions makes one check suite per workflow
 * run, so a head with test, lint and build workflows fails in several suites, minutes apart. The
 * round waits (bounded) while other suites of the head still run, then takes the failures of all
 * of them. Pure: the job reads the suites and carries the decision out.
 */
import { FAILED_CONCLUSIONS, type HeadSuite } from "../context/check-failures.js";

/** How often a waiting round looks at the head's suites again (a later failure's event replaces it sooner). */
export const CI_FIX_POLL_MS = 30_000;

export type HeadDecision =
  /** Other suites still run and the wait is not over: look again at `runAt`. */
  | { kind: "wait"; runAt: number; running: HeadSuite[] }
  /** Fix now: the failed suites in GitHub's order (the one that started the round among them), and those that outlasted the wait. */
  | { kind: "fix"; failed: number[]; stillRunning: HeadSuite[] };

/**
 * Still running: not completed and with check runs. GitHub makes an empty `queued` suite for every
 * app that may write checks, and most never run anything; waiting for those would always time out.
 */
export const suiteRunning = (suite: HeadSuite): boolean => suite.status !== "completed" && suite.runs > 0;

export function headDecision(suites: HeadSuite[], suiteId: number, now: number, deadline: number, pollMs = CI_FIX_POLL_MS): HeadDecision {
  const running = suites.filter(suiteRunning);
  if (running.length > 0 && now < deadline) return { kind: "wait", runAt: Math.min(deadline, now + pollMs), running };
  const failed = suites.filter((s) => s.status === "completed" && FAILED_CONCLUSIONS.has(s.conclusion ?? "")).map((s) => s.id);
  // The suite that started the round counts even when the listing does not show it failed (yet).
  return { kind: "fix", failed: failed.includes(suiteId) ? failed : [...failed, suiteId], stillRunning: running };
}

/** The one line a waiting round shows (the job list's outcome) until it runs again. */
export function waitingLine(running: HeadSuite[], sha: string, deadline: number): string {
  const apps = [...new Set(running.map((s) => s.app.replace(/[^\w.-]/g, "")))].slice(0, 5).join(", ");
  const until = new Date(deadline).toISOString().slice(11, 16);
  return `⏳ Waiting for ${running.length} more check suite${running.length === 1 ? "" : "s"} of ${sha.slice(0, 7)} (${apps}) to finish, until ${until} UTC at most`;
}

/** The note of a round that stopped waiting: which suites were still running. */
export function outlastedNote(running: HeadSuite[], waitMinutes: number): string | undefined {
  if (running.length === 0) return undefined;
  const apps = [...new Set(running.map((s) => s.app.replace(/[^\w.-]/g, "")))].join(", ");
  return `Not waited for: ${running.length} check suite${running.length === 1 ? "" : "s"} (${apps}) still running after ${waitMinutes} minute${waitMinutes === 1 ? "" : "s"} (\`implement.ciFix.waitMinutes\`); the next push runs them again`;
}
