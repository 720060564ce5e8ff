/**
 * Every command word, and how a mention naming it reads (DESIGN.md §1). A new word — a job kind
 * with a command in queue/job-kinds.ts, a `/crewbot` subcommand — fails the first test until it
 * is added to READINGS below: until then `@crewbot <word> …` was a question (`/ask`), so adding
 * the word changes how such mentions read, and that is decided here, not by accident.
 */
import { describe, expect, it } from "vitest";
import { COMMAND_KINDS } from "../../src/queue/job-kinds.js";
import { COMMAND_WORDS, CREWBOT_SUBCOMMANDS } from "../../src/triggers/command-words.js";
import { parseCommand } from "../../src/triggers/parse-command.js";
import { mentionAsCommand } from "../../src/triggers/parse-mention.js";

/** `@crewbot <word> now` → the command line it stands for. */
const READINGS: Record<string, string> = {
  plan: "/plan now",
  implement: "/implement now",
  review: "/review now",
  ask: "/ask now",
  describe: "/describe now",
  answer: "/answer now",
  help: "/crewbot help now",
  cancel: "/crewbot cancel now",
  pause: "/crewbot pause now",
  resume: "/crewbot resume now",
  learn: "/crewbot learn now",
  learnings: "/crewbot learnings now",
  insights: "/crewbot insights now",
};

describe("command words", () => {
  it("are exactly the decided ones: a new word needs its mention reading in READINGS", () => {
    expect([...COMMAND_WORDS.keys()].sort()).toEqual(Object.keys(READINGS).sort());
  });

  it("come from the job kinds' commands, /answer and /crewbot's subcommands", () => {
    expect([...COMMAND_WORDS.keys()]).toEqual([...COMMAND_KINDS, "answer", ...CREWBOT_SUBCOMMANDS]);
  });

  it.each(Object.entries(READINGS))("@crewbot %s now → %s", (word, line) => {
    expect(mentionAsCommand(`@crewbot ${word} now`, "crewbot")).toBe(line);
    expect(mentionAsCommand(`@crewbot /${word.toUpperCase()} now`, "crewbot")).toBe(line);
  });

  it("a mention whose first word is no command word is a question", () => {
    expect(mentionAsCommand("@crewbot why now", "crewbot")).toBe("/ask why now");
    expect(mentionAsCommand("@crewbot crewbot help", "crewbot")).toBe("/ask crewbot help");
  });

  it.each([...COMMAND_WORDS.values()])("$word as a slash command", ({ word, is }) => {
    if (is === "crewbot") {
      expect(parseCommand(`/crewbot ${word}`)).toEqual({ kind: word });
      // crewbot's own words count only after /crewbot: `/help` is another app's.
      expect(parseCommand(`/${word}`)).toBeNull();
    } else if (is === "answer") {
      expect(parseCommand(`/${word} now`)).toEqual({ kind: "answer", text: "now" });
    } else {
      expect(parseCommand(`/${word} now`)).toEqual({ kind: word, request: "now" });
    }
  });
});
