/**
 * A job paused on a question to its requester (`ask_user`): it waits `queued` with its `runAt` at
 * the wait's expiry, so it holds no running slot, survives restarts, and is claimed again either
 * when answered (runAt becomes now) or when the wait runs out (its handler then ends it).
 */

/** Who answered and with what; stored once: a second answer changes nothing. */
export interface WaitAnswer {
  by: string;
  text: string;
  /** The 1-based option ticked, when the answer was a tick. */
  option?: number;
  /** Epoch ms. */
  at: number;
}

export interface JobWait {
  question: string;
  options: string[];
  /** The login the question mentions (the requester). */
  asker: string;
  /** crewbot's question comment, once posted: only a tick on it answers. */
  commentId?: number;
  /** Epoch ms. */
  askedAt: number;
  /** Epoch ms: unanswered by then, the job ends `⏸ Stopped: no answer`. */
  expiresAt: number;
  /** What the job needs to go on (the saved conversation, the step, budgets, commit): the queue keeps it, never reads it. */
  resume: unknown;
  answer?: WaitAnswer;
}

export const NO_ANSWER_OUTCOME = "⏸ Stopped: no answer";
export const waitingOutcome = (login: string) => `⏳ Waiting for @${login}`;

/** A wait as stored must be plain JSON; anything else is a bug of the caller. */
export function validateWait(wait: JobWait): void {
  const ok =
    typeof wait === "object" && wait !== null &&
    typeof wait.question === "string" && wait.question.length > 0 &&
    Array.isArray(wait.options) && wait.options.every((o) => typeof o === "string") &&
    typeof wait.asker === "string" && wait.asker.length > 0 &&
    Number.isSafeInteger(wait.askedAt) && Number.isSafeInteger(wait.expiresAt) &&
    (wait.commentId === undefined || Number.isSafeInteger(wait.commentId)) &&
    wait.answer === undefined;
  if (!ok) throw new TypeError("a wait needs a question, options, the asker, askedAt, expiresAt and no answer yet");
}

export function validateAnswer(answer: WaitAnswer): void {
  if (typeof answer?.by !== "string" || !answer.by || typeof answer.text !== "string" || !Number.isSafeInteger(answer.at)) {
    throw new TypeError("an answer needs who gave it, its text and its time");
  }
  if (answer.option !== undefined && !(Number.isSafeInteger(answer.option) && answer.option >= 1)) {
    throw new TypeError("an answer's option is 1-based");
  }
}
