import { isCommandKind, type CommandKind } from "../queue/job-kinds.js";

/** What a comment asks of crewbot, or null when it asks nothing of us. */
export type Command =
  /** A job's command (queue/job-kinds.ts): `/plan`, `/implement`, `/review`. */
  | { kind: CommandKind; request: string }
  | { kind: "help"; unknown?: string }
  | { kind: "cancel" }
  /** `/answer <text>`: the answer to crewbot's waiting question on this issue or PR. */
  | { kind: "answer"; text: string };

/**
 * Commands sit on the first line of a comment, case-insensitively; a comment that opens with a
 * code fence or a quote is talking about a command, not giving one. The rest of the first line
 * and every later line are the request.
 */
export function parseCommand(body: string): Command | null {
  const lines = body.replace(/\r\n?/g, "\n").split("\n");
  const first = lines.findIndex((line) => line.trim() !== "");
  if (first === -1) return null;
  const line = lines[first]!.trim();
  if (line.startsWith(">") || line.startsWith("```") || line.startsWith("~~~") || /^ {4}|\t/.test(lines[first]!)) {
    return null;
  }
  const match = /^\/([a-z][a-z-]*)(?=\s|$)(.*)$/i.exec(line);
  if (!match) return null;
  const word = match[1]!.toLowerCase();
  const rest = [match[2]!, ...lines.slice(first + 1)].join("\n").trim();

  if (isCommandKind(word)) return { kind: word, request: rest };
  if (word === "answer") return { kind: "answer", text: rest };
  if (word !== "crewbot") return null;
  const sub = rest.split(/\s+/)[0]?.toLowerCase() ?? "";
  if (sub === "cancel") return { kind: "cancel" };
  if (sub === "" || sub === "help") return { kind: "help" };
  return { kind: "help", unknown: sub.slice(0, 40) };
}

export { reviewScope } from "../review/review-scope.js";
