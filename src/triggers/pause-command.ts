/**
 * `/crewbot pause` and `/crewbot resume` carried out: the flag set in the pause store, and one plain
 * reply — pausing a paused pull request (or resuming one that is not) is answered, never an error.
 */
import { repoKey } from "../review/review-store.js";
import type { PauseStore } from "../review/pauses.js";
import type { Decision } from "./comment-command.js";

type PauseDecision = Extract<Decision, { action: "pause" }>;

/** What the reply says after a pause or a resume; `was` is the pause in place before, `reviewing` whether a resume reviews the head now. Pure. */
export function pauseReply(decision: PauseDecision, was: { by: string } | undefined, reviewing = false): string {
  if (decision.pause) {
    if (was) return `This pull request is already paused (by @${was.by}). Comment \`/crewbot resume\` to end the pause.`;
    return (
      `⏸ Paused by @${decision.by}: no automatic reviews, summaries or CI fixes on this pull request until a writer comments \`/crewbot resume\`. ` +
      "Pushes get a `crewbot/review` check that says so; commands such as `/review` still work."
    );
  }
  if (!was) return "This pull request is not paused; there is nothing to resume.";
  if (reviewing) return `▶️ Resumed by @${decision.by}: automatic reviews, summaries and CI fixes are back on; the pull request's head is being reviewed now.`;
  return `▶️ Resumed by @${decision.by}: the next push to this pull request is reviewed automatically again.`;
}

/**
 * Sets or clears the pull request's pause and says what happened in `reply`. A resume that ended a
 * pause reviews the head at once (`reviewHead`: false when it could not be queued), so a head the
 * pause left with a "Paused" check does not wait for the next push.
 */
export async function carryOutPause(
  pauses: PauseStore,
  decision: PauseDecision,
  target: { owner: string; repo: string; number: number },
  reply: (body: string, what: string) => void,
  reviewHead: () => Promise<boolean>,
): Promise<void> {
  const key = repoKey(target.owner, target.repo);
  const { was } = decision.pause ? await pauses.pause(key, target.number, decision.by) : await pauses.resume(key, target.number);
  const reviewing = !decision.pause && was !== undefined && (await reviewHead());
  reply(pauseReply(decision, was, reviewing), decision.pause ? "pause reply" : "resume reply");
}
