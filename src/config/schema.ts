/**
 * `.github/crewbot.yml` (DESIGN.md §5): every key optional, unknown keys are errors, and each
 * field says in plain words what it expects, so an error can name the key and the fix.
 */
import { z } from "zod";
import { DEFAULT_BUDGETS } from "../agent/budget.js";
import { COMMAND_KINDS, type CommandKind } from "../queue/job-kinds.js";

/** The file crewbot reads, relative to the repository root (and to an organisation's `.github` repository). */
export const CONFIG_PATH = ".github/crewbot.yml";

const expect = (text: string) => ({ error: text });
const flag = (fallback: boolean) => z.boolean(expect("true or false")).default(fallback);
const positive = (what: string) => z.number(expect(what)).positive(expect(what));
const positiveInt = (what: string) => z.number(expect(what)).int(expect(what)).positive(expect(what));
const strings = (what: string) => z.array(z.string(expect(what)), expect(`a list of ${what}`));

/** A shell command line for `setup` or `check`: one line, not empty. */
const command = z
  .string(expect("a command (a string)"))
  .trim()
  .min(1, expect("a command, not an empty string"))
  .max(2000, expect("a command of at most 2000 characters"))
  .refine((c) => !/[\r\n\0]/.test(c), expect("a command on one line (write several commands as several list items)"));
const commands = z.array(command, expect("a list of commands (strings)")).max(20, expect("at most 20 commands"));

/** Model ids as the Anthropic API names them (`claude-sonnet-4-5`, `claude-3-5-haiku@20241022`). */
const modelId = z.string(expect("a model id")).regex(/^[A-Za-z0-9][A-Za-z0-9._:@/-]{0,99}$/, expect("a model id such as claude-sonnet-4-5"));

const chainName = z
  .string(expect("a chain name"))
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/, expect("a chain name such as implement or implement-and-review"));

/** A label name as GitHub allows it (at most 50 characters); "" turns that label trigger off. */
const labelName = z.string(expect("a label name, or \"\" to turn it off")).max(50, expect("a label name of at most 50 characters"));

export const ConfigSchema = z.strictObject({
  commands: z
    // Every command of queue/job-kinds.ts, on unless turned off.
    .strictObject(Object.fromEntries(COMMAND_KINDS.map((kind) => [kind, flag(true)])) as Record<CommandKind, ReturnType<typeof flag>>, expect("a map of commands to true or false"))
    .prefault({}),
  triggers: z
    .strictObject(
      {
        labels: z
          .strictObject({ plan: labelName.default("crewbot:plan"), implement: labelName.default("crewbot:implement") }, expect("a map with plan and implement"))
          .prefault({}),
      },
      expect("a map of trigger settings"),
    )
    .prefault({}),
  review: z
    .strictObject(
      {
        auto: flag(true),
        /** Whose pull requests are reviewed automatically: trusted = author_association OWNER, MEMBER or COLLABORATOR. */
        authors: z.enum(["trusted", "everyone"], expect("trusted or everyone")).default("trusted"),
        drafts: flag(false),
        ignoreAuthors: strings("logins (strings)").default([]),
        includeBots: strings("bot logins (strings)").default([]),
        /** Not in DESIGN §5's list, asked for by the reviews issue: labels and title words that skip a PR. */
        ignoreLabels: strings("labels (strings)").default([]),
        ignoreTitles: strings("title words (strings), matched anywhere in the title, any case").default([]),
        paths: z
          .strictObject(
            { include: strings("glob patterns (strings)").default(["**"]), exclude: strings("glob patterns (strings)").default([]) },
            expect("a map with include and exclude"),
          )
          .prefault({}),
        debounceSeconds: z.number(expect("a number of seconds")).int(expect("a whole number of seconds")).min(0, expect("0 or more seconds")).max(3600, expect("at most 3600 seconds")).default(60),
        /** Committable ```suggestion blocks for findings that come with a concrete fix. */
        suggestions: flag(true),
        /** The `crewbot/review` check run fails when a finding this severe or worse is open. */
        failOn: z.enum(["never", "critical", "warning", "reproduced"], expect("never, critical, warning or reproduced")).default("never"),
        /** The check run's "Fix these findings" button (same-repository pull requests with open findings). */
        fixAction: flag(true),
        /** Reproducers for findings (`prove`): auto offers the tool to the reviewer where bash runs; never on a fork's PR. */
        prove: z.enum(["auto", "off"], expect("auto or off")).default("auto"),
        /** Per review: at most `max` proofs, each (head and base runs together) at most `seconds`. */
        proofBudget: z
          .strictObject(
            {
              max: z.number(expect("a whole number of proofs")).int(expect("a whole number of proofs")).min(0, expect("0 (none) or more proofs")).max(20, expect("at most 20 proofs")).default(5),
              seconds: z.number(expect("a number of seconds")).int(expect("a whole number of seconds")).min(1, expect("at least 1 second")).max(600, expect("at most 600 seconds")).default(120),
            },
            expect("a map with max and seconds"),
          )
          .prefault({}),
      },
      expect("a map of review settings"),
    )
    .prefault({}),
  implement: z
    .strictObject(
      {
        chain: chainName.default("implement"),
        draft: flag(true),
        setup: commands.default([]),
        check: commands.default([]),
        /** Commit changes under `.github/workflows/` and `.github/actions/` (refused by default). */
        allowWorkflowEdits: flag(false),
        /** Automatic fix rounds on crewbot's own pull requests when their checks fail; 0 turns them off. */
        ciFix: z
          .strictObject(
            {
              rounds: z.number(expect("a whole number of rounds")).int(expect("a whole number of rounds")).min(0, expect("0 (off) or more rounds")).max(10, expect("at most 10 rounds")).default(2),
              /** Minutes a round waits for the head's other check suites still running (0: it starts at once). */
              waitMinutes: z.number(expect("a number of minutes")).min(0, expect("0 or more minutes")).max(60, expect("at most 60 minutes")).default(10),
            },
            expect("a map with rounds: a whole number (0 turns automatic fixes off), and waitMinutes"),
          )
          .prefault({}),
        /** How step commits reach GitHub: pushed with git, or made through the Git Data API (GitHub signs those: Verified). */
        commits: z.enum(["git", "api"], expect("git or api")).default("git"),
      },
      expect("a map of implement settings"),
    )
    .prefault({}),
  budgets: z
    .strictObject(
      {
        maxTurns: positiveInt("a whole number above 0").default(DEFAULT_BUDGETS.maxTurns),
        maxOutputTokens: positiveInt("a whole number above 0").default(DEFAULT_BUDGETS.maxOutputTokens),
        maxCostUsd: positive("a number of US dollars above 0").default(DEFAULT_BUDGETS.maxCostUsd),
        maxMinutes: positive("a number of minutes above 0").default(DEFAULT_BUDGETS.maxMinutes),
      },
      expect("a map of budgets"),
    )
    .prefault({}),
  models: z.record(z.string(), modelId, expect("a map of agent names to model ids")).default({}),
  sandbox: z.strictObject({ network: flag(false) }, expect("a map with network: true or false")).prefault({}),
  /** `ask_user` for the read-only steps of /plan and /implement; an unanswered question ends the job after timeoutHours. */
  ask: z
    .strictObject(
      {
        enabled: flag(true),
        timeoutHours: positive("a number of hours above 0").max(720, expect("at most 720 hours (30 days)")).default(24),
      },
      expect("a map with enabled and timeoutHours"),
    )
    .prefault({}),
  /** Beyond DESIGN §5 (the transcripts issue asks for it): a public repository's job pages open without sign-in. */
  transcripts: z.strictObject({ public: flag(false) }, expect("a map with public: true or false")).prefault({}),
});

/** The effective configuration: every key present, defaults filled in. */
export type CrewbotConfig = z.output<typeof ConfigSchema>;

/** The configuration of a repository without a config file. */
export const DEFAULT_CONFIG: CrewbotConfig = ConfigSchema.parse({});

/** The keys an object at `path` accepts, for "unknown key" messages; undefined when not an object. */
export function keysAt(path: readonly PropertyKey[]): string[] | undefined {
  let schema: z.ZodType = ConfigSchema;
  for (const key of [...path, null]) {
    // Unwrap .default()/.prefault()/.optional() to the object inside.
    let def = schema._zod.def as { type: string; innerType?: z.ZodType; shape?: Record<string, z.ZodType> };
    while (def.innerType && def.type !== "object") {
      schema = def.innerType;
      def = schema._zod.def as typeof def;
    }
    if (def.type !== "object" || !def.shape) return undefined;
    if (key === null) return Object.keys(def.shape);
    const next = def.shape[String(key)];
    if (!next) return undefined;
    schema = next;
  }
  return undefined;
}
