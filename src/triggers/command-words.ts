/**
 * Every word that opens a crewbot command, in one table derived from where each is defined: the
 * job kinds a person starts by name (queue/job-kinds.ts), then `/answer` and `/crewbot`'s own
 * subcommands (queue/own-commands.ts). Slash commands (parse-command.ts) and mentions (parse-mention.ts) both read it.
 *
 * A mention's first word is read here too (DESIGN.md §1): `@crewbot plan …` is `/plan …`,
 * `@crewbot help` is `/crewbot help`, and a word not in the table makes the whole text a question
 * (`/ask <text>`). So a new word also changes how mentions read (`@crewbot explain why …` stops
 * being a question); test/triggers/command-words.test.ts lists every word with its reading and
 * fails until a new one is decided there.
 */
import { COMMAND_KINDS, type CommandKind } from "../queue/job-kinds.js";
import { CREWBOT_SUBCOMMANDS, type CrewbotSubcommand } from "../queue/own-commands.js";

export { CREWBOT_SUBCOMMANDS, type CrewbotSubcommand };

/** `/crewbot <word>`: crewbot's own words, which start no job of their name. */
export const isCrewbotSubcommand = (word: string): word is CrewbotSubcommand => (CREWBOT_SUBCOMMANDS as readonly string[]).includes(word);

/** What a command word stands for: a job's command (`/plan`), `/answer`, or a `/crewbot` subcommand. */
export type CommandWord = { word: CommandKind; is: "job" } | { word: "answer"; is: "answer" } | { word: CrewbotSubcommand; is: "crewbot" };

function wordTable(words: readonly CommandWord[]): ReadonlyMap<string, CommandWord> {
  const table = new Map<string, CommandWord>();
  for (const entry of words) {
    // One word, one meaning: a job kind named like a subcommand would make `@crewbot help` ambiguous.
    if (table.has(entry.word)) throw new Error(`the command word "${entry.word}" is defined twice`);
    table.set(entry.word, entry);
  }
  return table;
}

export const COMMAND_WORDS = wordTable([
  ...COMMAND_KINDS.map((word): CommandWord => ({ word, is: "job" })),
  { word: "answer", is: "answer" },
  ...CREWBOT_SUBCOMMANDS.map((word): CommandWord => ({ word, is: "crewbot" })),
]);

/** The command word `word` is (any case), or undefined. */
export const commandWord = (word: string): CommandWord | undefined => COMMAND_WORDS.get(word.toLowerCase());

/** The command line a mention's first word and the rest of its line stand for; undefined when the word names no command (the mention is then a question). */
export function mentionedCommandLine(word: string, rest: string): string | undefined {
  const named = commandWord(word);
  if (!named) return undefined;
  return named.is === "crewbot" ? `/crewbot ${named.word}${rest}` : `/${named.word}${rest}`;
}
