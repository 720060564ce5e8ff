/**
 * `/crewbot pause` and `/crewbot resume` carried out: the flag set in the pause store, and one plain
 * reply — pausing a paused pull request (or resuming one that is not) is answered, never an error.
 */
import { repoKey } from "../review/review-store.js";
import type { PauseStore } from "../review/pauses.js";
import type { Decision } from "./comment-command.js";

type PauseDecision = Extract<Decision, { action: "pause" }>;

/** What the reply says after a pause or a resume; `was` is the pause in place before. Pure. */
export function pauseReply(decision: PauseDecision, was: { by: string } | undefined): string {
  if (decision.pause) {
    if (was) return `This pull request is already paused (by @${was.by}). Comment \`/crewbot resume\` to end the pause.`;
    return (
      `⏸ Paused by @${decision.by}: no automatic reviews, summaries or CI fixes on this pull request until a writer comments \`/crewbot resume\`. ` +
      "Pushes get a `crewbot/review` check that says so; commands such as `/review` still work."
    );
  }
  if (!was) return "This pull request is not paused; there is nothing to resume.";
  return `▶️ Resumed by @${decision.by}: the next push to this pull request is reviewed automatically again.`;
}

/** Sets or clears the pull request's pause and says what happened in `reply`. */
export async function carryOutPause(pauses: PauseStore, decision: PauseDecision, target: { owner: string; repo: string; number: number }, reply: (body: string, what: string) => void): Promise<void> {
  const key = repoKey(target.owner, target.repo);
  const { was } = decision.pause ? await pauses.pause(key, target.number, decision.by) : await pauses.resume(key, target.number);
  reply(pauseReply(decision, was), decision.pause ? "pause reply" : "resume reply");
}
