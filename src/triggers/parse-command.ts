import type { CommandKind } from "../queue/job-kinds.js";
import { commandWord, isCrewbotSubcommand } from "./command-words.js";
import { mentionAsCommand } from "./parse-mention.js";

/** What a comment asks of crewbot, or null when it asks nothing of us. */
export type Command = (
  /** A job's command (queue/job-kinds.ts): `/plan`, `/implement`, `/review`, `/ask`. */
  | { kind: CommandKind; request: string }
  | { kind: "help"; unknown?: string }
  | { kind: "cancel" }
  /** `/crewbot pause`, `/crewbot resume`: automatic work on this pull request stops, or starts again. */
  | { kind: "pause" }
  | { kind: "resume" }
  /** `/crewbot learn`: propose the learnings gathered so far; `/crewbot learnings`: list the merged ones. */
  | { kind: "learn" }
  | { kind: "learnings" }
  /** `/crewbot insights`: the repository's last 30 days in a small table. */
  | { kind: "insights" }
  /** `/answer <text>`: the answer to crewbot's waiting question on this issue or PR. */
  | { kind: "answer"; text: string }
) & {
  /** Given by mentioning the app (`@crewbot plan …`), which `triggers.mention: false` turns off. */
  mention?: true;
};

/**
 * Commands sit on the first line of a comment, case-insensitively; a comment that opens with a
 * code fence or a quote is talking about a command, not giving one. The rest of the first line
 * and every later line are the request. With the app's slug, a first line that starts by
 * mentioning the app is the command it names (parse-mention.ts).
 */
export function parseCommand(body: string, appSlug?: string): Command | null {
  const lines = body.replace(/\r\n?/g, "\n").split("\n");
  const first = lines.findIndex((line) => line.trim() !== "");
  if (first === -1) return null;
  const line = lines[first]!.trim();
  if (line.startsWith(">") || line.startsWith("```") || line.startsWith("~~~") || /^ {4}|\t/.test(lines[first]!)) {
    return null;
  }
  const mentioned = appSlug === undefined ? undefined : mentionAsCommand(line, appSlug);
  const command = parseLine(mentioned ?? line, lines.slice(first + 1));
  return command && mentioned !== undefined ? { ...command, mention: true } : command;
}

function parseLine(line: string, later: string[]): Command | null {
  const match = /^\/([a-z][a-z-]*)(?=\s|$)(.*)$/i.exec(line);
  if (!match) return null;
  const word = match[1]!.toLowerCase();
  const rest = [match[2]!, ...later].join("\n").trim();

  if (word === "crewbot") return crewbotSubcommand(rest.split(/\s+/)[0]?.toLowerCase() ?? "");
  // `/help` and the other subcommands' words count only after `/crewbot`.
  const named = commandWord(word);
  if (named?.is === "job") return { kind: named.word, request: rest };
  if (named?.is === "answer") return { kind: "answer", text: rest };
  return null;
}

/** `/crewbot <sub>`: one of its subcommands; none or an unknown one is the help text. */
function crewbotSubcommand(sub: string): Command {
  if (isCrewbotSubcommand(sub)) return { kind: sub };
  return sub === "" ? { kind: "help" } : { kind: "help", unknown: sub.slice(0, 40) };
}

export { reviewScope } from "../review/review-scope.js";
