import type { Context } from "probot";
import type { InstallationOctokit } from "../github/types.js";
import type { TriggerDeps } from "./deps.js";
import { decideFixClick, takeFixClick, type CheckRunActionPayload } from "./fix-click.js";

/**
 * `check_run.requested_action`: "Fix these findings" on crewbot's review check. A click that is
 * not ours (another button, a fork, a bot) is logged at debug level; no GitHub write either way.
 */
export async function onCheckRunAction(context: Context<"check_run.requested_action">, deps: TriggerDeps): Promise<void> {
  const payload = context.payload as unknown as CheckRunActionPayload;
  const decision = decideFixClick(payload, deps.appId !== undefined ? { id: deps.appId } : { slug: await deps.appSlug() });
  if (decision.action === "ignore") return deps.log.debug({ deliveryId: context.id, checkRunId: payload.check_run.id, reason: decision.reason }, "check_run action ignored");
  if (!(await deps.admission.newDelivery(context.id))) return deps.log.info({ deliveryId: context.id }, "redelivered check_run action dropped");
  await takeFixClick(context.id, payload, decision, context.octokit as unknown as InstallationOctokit, deps);
}
