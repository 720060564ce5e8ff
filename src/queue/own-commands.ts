/**
 * The command words that start no job of their own name: `/answer`, and crewbot's own subcommands
 * (`/crewbot cancel`, …). With the job kinds' commands (job-kinds.ts) they are every command word
 * (triggers/command-words.ts) and every line of `/crewbot help` (report/render.ts), in this order.
 * Data only, importing nothing but the help row's shape.
 */
import type { HelpRow } from "./job-kinds.js";

export interface OwnCommandRow {
  /** `slash`: `/<word>` itself (`/answer`); `crewbot`: only after `/crewbot` (`/help` is another app's). */
  form: "slash" | "crewbot";
  help: readonly HelpRow[];
}

export const OWN_COMMANDS = {
  answer: {
    form: "slash",
    help: [{ usage: "/answer <text>", where: "where crewbot asked a question", what: "Answers it (or tick one of its options); the job waiting for it goes on." }],
  },
  cancel: {
    form: "crewbot",
    help: [{ usage: "/crewbot cancel", where: "issue or pull request", what: "Cancels the job running here (or waiting for an answer)." }],
  },
  pause: {
    form: "crewbot",
    help: [
      {
        usage: "/crewbot pause",
        where: "pull request",
        what: "Stops automatic reviews, summaries and CI fixes on this pull request until `/crewbot resume`; a push gets a `crewbot/review` check saying so. Commands still work.",
      },
    ],
  },
  resume: {
    form: "crewbot",
    help: [{ usage: "/crewbot resume", where: "pull request", what: "Ends a pause: the next push is reviewed automatically again." }],
  },
  learn: {
    form: "crewbot",
    help: [
      {
        usage: "/crewbot learn",
        where: "issue or pull request",
        what: "Proposes what the team taught crewbot in its threads so far, as the `crewbot/learnings` pull request editing `.github/crewbot/learnings.md` (opened once, updated after).",
      },
    ],
  },
  learnings: {
    form: "crewbot",
    help: [
      {
        usage: "/crewbot learnings",
        where: "issue or pull request",
        what: "Lists the learnings merged on the default branch, with how many reviews each shaped in the last 30 days and when it was last used.",
      },
    ],
  },
  insights: {
    form: "crewbot",
    help: [
      {
        usage: "/crewbot insights",
        where: "issue or pull request",
        what: "The repository's last 30 days in a small table: reviews, findings posted, how many were fixed or dismissed, cost, time to the first review.",
      },
    ],
  },
  help: {
    form: "crewbot",
    help: [{ usage: "/crewbot help", where: "anywhere", what: "This text." }],
  },
} as const satisfies Record<string, OwnCommandRow>;

export type OwnCommand = keyof typeof OWN_COMMANDS;

/** `/crewbot <word>`: the subcommands, in the table's order. */
export type CrewbotSubcommand = { [K in OwnCommand]: (typeof OWN_COMMANDS)[K]["form"] extends "crewbot" ? K : never }[OwnCommand];

export const OWN_COMMAND_NAMES = Object.keys(OWN_COMMANDS) as OwnCommand[];

export const CREWBOT_SUBCOMMANDS = OWN_COMMAND_NAMES.filter((word): word is CrewbotSubcommand => OWN_COMMANDS[word].form === "crewbot");
