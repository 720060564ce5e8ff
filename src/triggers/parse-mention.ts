import { mentionedCommandLine } from "./command-words.js";

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The command line a mention of the app stands for (DESIGN.md §1), or undefined when `line` does
 * not start by mentioning it. `line` is a comment's first line, already known to be no quote and
 * no code. The mention is `@<slug>` or `@<slug>[bot]`, matched case-insensitively as GitHub
 * matches logins, then a space, a comma, a colon or the line's end: `@crewbot-staging` and
 * `@crewbots` are other accounts. After it, a command word (`plan`, `/plan`; command-words.ts)
 * is that command — a job's, `/answer`, or `/crewbot help`/`cancel`/… — anything else is
 * `/ask <text>`, and a bare mention is the help text. Pure.
 */
export function mentionAsCommand(line: string, appSlug: string): string | undefined {
  const slug = appSlug.trim().replace(/\[bot\]$/i, "");
  if (slug === "") return undefined;
  const mention = new RegExp(`^@${escapeRegExp(slug)}(?:\\[bot\\])?(?=[\\s,:]|$)[,:]?[ \\t]*(.*)$`, "i").exec(line.trim());
  if (!mention) return undefined;
  const text = mention[1]!.trim();
  if (text === "") return "/crewbot help";
  const word = /^\/?([a-z][a-z-]*)(?=\s|$)/i.exec(text);
  const named = word && mentionedCommandLine(word[1]!, text.slice(word[0].length));
  return named ?? `/ask ${text}`;
}

/** Whether a comment may start with a mention at all: only then is the app's slug worth looking up. */
export const mayMention = (body: string): boolean => /^\s*@/.test(body);
