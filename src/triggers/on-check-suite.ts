import type { Context } from "probot";
import { decideCheckSuite, type CheckSuitePayload } from "./check-suite.js";
import { startCiFix } from "./check-suite-start.js";
import type { TriggerDeps } from "./deps.js";

/**
 * A completed check suite: a ci-fix job when it failed on the head of an open pull request from a
 * branch ci-fix works on (crewbot's own, or one of `implement.ciFix.branches`), checked with GitHub
 * in check-suite-start.ts. Anything else is logged at debug level and left alone — no GitHub write.
 */
export async function onCheckSuite(context: Context<"check_suite.completed">, deps: TriggerDeps): Promise<void> {
  const payload = context.payload as unknown as CheckSuitePayload;
  // The app's id is known wherever Probot runs (APP_ID); its slug is the fallback, asked of GitHub once.
  const decision = decideCheckSuite(payload, deps.appId !== undefined ? { id: deps.appId } : { slug: await deps.appSlug() });
  if (decision.action === "ignore") return deps.log.debug({ deliveryId: context.id, suiteId: payload.check_suite.id, reason: decision.reason }, "check_suite event ignored");
  await startCiFix(context, deps, payload, decision);
}
