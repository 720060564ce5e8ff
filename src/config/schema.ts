/**
 * `.github/crewbot.yml` (DESIGN.md §5): every key optional, unknown keys are errors, and each
 * field says in plain words what it expects, so an error can name the key and the fix.
 */
import { z } from "zod";
import { DEFAULT_BUDGETS } from "../agent/budget.js";
import { COMMAND_KINDS, jobCommand, type CommandKind } from "../queue/job-kinds.js";
import { mcpConfig } from "./mcp-servers.js";

/** `review.effort`'s levels, cheapest first; what each does to the reviewer's run is review/effort.ts. */
export const REVIEW_EFFORTS = ["quick", "standard", "deep"] as const;
export type ReviewEffort = (typeof REVIEW_EFFORTS)[number];

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
  .refine((c) => !/[\r\n\0]/.test(c), expect("a command on one line (write several commands as several list items)"))
  // The same rule for JSON Schema, which cannot trim: one line once the ends' whitespace is dropped.
  .meta({ pattern: String.raw`^\s*[^\s\u0000](?:[^\r\n\u0000]*[^\s\u0000])?\s*$` });
const commands = z.array(command, expect("a list of commands (strings)")).max(20, expect("at most 20 commands"));

/** Model ids as the Anthropic API names them (`claude-sonnet-4-5`, `claude-3-5-haiku@20241022`). */
const modelId = z.string(expect("a model id")).regex(/^[A-Za-z0-9][A-Za-z0-9._:@/-]{0,99}$/, expect("a model id such as claude-sonnet-4-5"));

const chainName = z
  .string(expect("a chain name"))
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/, expect("a chain name such as implement or implement-and-review"));

/** A label name as GitHub allows it (at most 50 characters); "" turns that label trigger off. */
const labelName = z.string(expect("a label name, or \"\" to turn it off")).max(50, expect("a label name of at most 50 characters"));

/** `review.instructions` entry: what the reviewer is told about the files matching `paths` (globs as in `review.paths`). */
const reviewInstruction = z.strictObject(
  {
    paths: z
      .array(z.string(expect("a glob pattern (a string)")).trim().min(1, expect("a glob pattern, not an empty string")).max(200, expect("a glob pattern of at most 200 characters")), expect("a list of glob patterns"))
      .min(1, expect("at least one glob pattern"))
      .max(20, expect("at most 20 glob patterns")),
    text: z.string(expect("the instructions (a string)")).trim().min(1, expect("instructions, not an empty string")).max(4000, expect("instructions of at most 4000 characters")),
  },
  expect("a map with paths (glob patterns) and text"),
);

export const ConfigSchema = z.strictObject({
  commands: z
    // Every command of queue/job-kinds.ts, on unless turned off.
    .strictObject(
      Object.fromEntries(COMMAND_KINDS.map((kind) => [kind, flag(true).describe(jobCommand(kind).config)])) as Record<CommandKind, ReturnType<typeof flag>>,
      expect("a map of commands to true or false"),
    )
    .prefault({})
    .describe("Which commands crewbot answers in this repository. A command turned off is answered with a comment saying so, and nothing is cloned."),
  triggers: z
    .strictObject(
      {
        labels: z
          .strictObject(
            {
              plan: labelName.default("crewbot:plan").describe('The label that starts `/plan`; `""` turns it off.'),
              implement: labelName.default("crewbot:implement").describe('The label that starts `/implement`; `""` turns it off.'),
            },
            expect("a map with plan and implement"),
          )
          .prefault({})
          .describe(
            "Labels that start a job, without extra instructions, when someone with write permission adds one to an issue; crewbot removes the label when it takes the job, so adding it again runs again.",
          ),
        mention: flag(true).describe(
          "A comment whose first line starts by mentioning the app (`@crewbot plan …`) is the command it names; any other text after the mention is `/ask <text>`. `false` turns mentions off (they are then ignored); slash commands still work.",
        ),
      },
      expect("a map of trigger settings"),
    )
    .prefault({})
    .describe("Ways to start a job other than a command."),
  learnings: z
    .strictObject(
      {
        enabled: flag(true).describe("Gather what writers teach crewbot in its threads (dismissed findings, accepted or refused suggestions, \"always …\" / \"never …\" replies) and propose it as `.github/crewbot/learnings.md` in a pull request; the merged file is given to the reviewer and the planner."),
        proposeAfter: z.number(expect("a whole number")).int(expect("a whole number")).min(1, expect("at least 1")).max(100, expect("at most 100")).default(2).describe("How often a candidate must repeat before crewbot proposes it in its learnings pull request (`/crewbot learn` proposes at once)."),
        staleDays: z.number(expect("a whole number of days")).int(expect("a whole number of days")).min(1, expect("at least 1 day")).max(3650, expect("at most 3650 days")).default(90).describe("A merged learning no review used for this many days is proposed for removal in the learnings pull request."),
      },
      expect("a map with enabled, proposeAfter and staleDays"),
    )
    .prefault({})
    .describe("Learnings: what the team taught crewbot, kept in the repository as `.github/crewbot/learnings.md` and changed only through a pull request the team reviews."),
  review: z
    .strictObject(
      {
        auto: flag(true).describe(
          "Review pull requests automatically when they are opened, reopened, marked ready for review or pushed to. `false`: no automatic review and no `crewbot/review` check run at all.",
        ),
        authors: z
          .enum(["trusted", "everyone"], expect("trusted or everyone"))
          .default("trusted")
          .describe("Whose pull requests are reviewed automatically: `trusted` (author_association OWNER, MEMBER or COLLABORATOR) or `everyone`."),
        drafts: flag(false).describe("Review draft pull requests automatically too; with `false` a draft is reviewed once it is marked ready."),
        ignoreAuthors: strings("logins (strings)").default([]).describe("Logins whose pull requests are not reviewed automatically (any case)."),
        includeBots: strings("bot logins (strings)")
          .default([])
          .describe("Bot logins whose pull requests are reviewed automatically; every other bot's pull requests are skipped."),
        ignoreLabels: strings("labels (strings)").default([]).describe("Labels that skip the automatic review of a pull request that has one, e.g. `[no-review]` (any case)."),
        ignoreTitles: strings("title words (strings), matched anywhere in the title, any case")
          .default([])
          .describe("Words that skip the automatic review of a pull request whose title contains one, anywhere and in any case, e.g. `[WIP]`."),
        paths: z
          .strictObject(
            {
              include: strings("glob patterns (strings)").default(["**"]).describe("Glob patterns of the files to review; `**` is every file."),
              exclude: strings("glob patterns (strings)").default([]).describe("Glob patterns of files not to review, even where `include` matches them."),
            },
            expect("a map with include and exclude"),
          )
          .prefault({})
          .describe("Which changed files the reviewer reads, by path (every review, `/review` too). Lockfiles, generated and vendored files are left out anyway."),
        debounceSeconds: z
          .number(expect("a number of seconds"))
          .int(expect("a whole number of seconds"))
          .min(0, expect("0 or more seconds"))
          .max(3600, expect("at most 3600 seconds"))
          .default(60)
          .describe("Seconds an automatic review waits after a push for more pushes, so that a burst of pushes is reviewed once."),
        suggestions: flag(true).describe("A finding that comes with a concrete fix carries it as a committable suggestion block (when its lines lie in one hunk)."),
        failOn: z
          .enum(["never", "critical", "warning", "reproduced"], expect("never, critical, warning or reproduced"))
          .default("never")
          .describe(
            "When the `crewbot/review` check run fails: `never`; `critical` or `warning` while a finding that severe or worse is open; `reproduced` only on open critical or warning findings whose reproducer failed on the head.",
          ),
        fixAction: flag(true).describe("The `crewbot/review` check run's **Fix these findings** button (same-repository pull requests with open findings)."),
        prove: z
          .enum(["auto", "off"], expect("auto or off"))
          .default("auto")
          .describe("`auto`: the reviewer may back findings with reproducers, run in the sandbox where bash runs and never on a fork's pull request; `off`: no reproducers."),
        summary: z
          .enum(["off", "auto"], expect("off or auto"))
          .default("off")
          .describe(
            "`auto`: crewbot writes its summary block in the pull request's description with each automatic review (when the pull request opens, and after pushes, with the review's debounce and skip rules); `off`: only `/describe` writes it.",
          ),
        proofBudget: z
          .strictObject(
            {
              max: z.number(expect("a whole number of proofs")).int(expect("a whole number of proofs")).min(0, expect("0 (none) or more proofs")).max(20, expect("at most 20 proofs")).default(5).describe("Reproducers run per review at most."),
              seconds: z.number(expect("a number of seconds")).int(expect("a whole number of seconds")).min(1, expect("at least 1 second")).max(600, expect("at most 600 seconds")).default(120).describe("Seconds each reproducer may take, its runs on the head and the base together."),
            },
            expect("a map with max and seconds"),
          )
          .prefault({})
          .describe("Per review: how many reproducers run, and for how long each."),
        instructions: z
          .array(reviewInstruction, expect("a list of {paths, text} entries"))
          .max(50, expect("at most 50 entries"))
          .default([])
          .describe("Instructions for reviews of some paths: each entry's text is given to the reviewer, marked with its entry, when a reviewed file matches one of its paths."),
        dependencies: z
          .strictObject(
            {
              enabled: flag(true).describe("Review the npm dependencies a pull request changes: both published tarballs of each changed package are read from the operator's registry (`CREWBOT_NPM_REGISTRY`) and compared; nothing of them runs."),
              maxPackages: z.number(expect("a whole number of packages")).int(expect("a whole number of packages")).min(1, expect("at least 1 package")).max(200, expect("at most 200 packages")).default(20).describe("Changed packages inspected per review at most; the rest are listed as not inspected."),
            },
            expect("a map with enabled and maxPackages"),
          )
          .prefault({})
          .describe("The review's **Dependencies** section: what each changed npm package's new version adds (install scripts, executables, network, child processes, `eval`, native addons, new dependencies, licence, publisher, deprecation)."),
        effort: z
          .enum(REVIEW_EFFORTS, expect("quick, standard or deep"))
          .default("standard")
          .describe(
            "How much a review may spend: `quick` is one look at the whole diff (no file tools, no reproducers, 2 turns); `standard` reads the code around the changes and proves critical and warning findings; `deep` gets twice the reviewer's turns and twice `proofBudget.max`. Where the operator names a first-look model (`CREWBOT_FIRST_LOOK_MODEL`), `quick` runs on it, and `standard` and `deep` first ask it which hunks depend on code outside the diff: the reviewer spends its tools there, and when it names none the review is one look. `budgets` stay the limits of every level; the check run and the `/review` comment name the review's cost beside its level.",
          ),
      },
      expect("a map of review settings"),
    )
    .prefault({})
    .describe(
      "How crewbot reviews pull requests. `auto`, `authors`, `drafts`, `ignoreAuthors`, `includeBots`, `ignoreLabels` and `ignoreTitles` decide only which pull requests are reviewed automatically: a `/review` comment skips them.",
    ),
  implement: z
    .strictObject(
      {
        chain: chainName
          .default("implement")
          .describe(
            "The chain of `/implement`, ci-fix rounds and **Fix these findings**: `implement`, `implement-and-review` (the reviewer checks the worker, who then fixes), or one with a worker step in the repository's `.github/crewbot/prompts/<name>.md`.",
          ),
        draft: flag(true).describe("Open the pull request as a draft (a ready one where GitHub refuses drafts, saying so)."),
        setup: commands.default([]).describe("Commands, one line each, run in the checkout before the agents, with network, 10 minutes each, e.g. `[npm ci]`; a failed one ends the job. Never on a fork's code."),
        check: commands.default([]).describe("Commands, one line each, run after the worker, e.g. `[npm test]`; their result is the verdict, shown in the pull request, which is opened even when one fails."),
        allowWorkflowEdits: flag(false).describe(
          "Commit changes under `.github/workflows/` and `.github/actions/` (left out by default, and the comment says so); GitHub then accepts the push only if the app has the Workflows: write permission.",
        ),
        ciFix: z
          .strictObject(
            {
              rounds: z.number(expect("a whole number of rounds")).int(expect("a whole number of rounds")).min(0, expect("0 (off) or more rounds")).max(10, expect("at most 10 rounds")).default(2).describe("Fix rounds per pull request at most; `0` turns ci-fix off."),
              waitMinutes: z.number(expect("a number of minutes")).min(0, expect("0 or more minutes")).max(60, expect("at most 60 minutes")).default(10).describe("Minutes a round waits for the head's other check suites still running (`0`: it starts at once)."),
              branches: z
                .array(z.string(expect("a glob pattern (a string)")).trim().min(1, expect("a glob pattern, not an empty string")).max(200, expect("a glob pattern of at most 200 characters")), expect("a list of glob patterns"))
                .max(20, expect("at most 20 glob patterns"))
                .default([])
                .describe("Branches of other bots' pull requests from this repository that ci-fix rounds also work on, as globs, e.g. `[\"renovate/**\", \"dependabot/**\"]`; crewbot's own `crewbot/` branches always count."),
            },
            expect("a map with rounds: a whole number (0 turns automatic fixes off), waitMinutes and branches"),
          )
          .prefault({})
          .describe("Automatic fix rounds on crewbot's own pull requests (and on other bots' branches that `branches` lists) when their checks fail: the worker gets the failing checks and pushes a fix."),
        commits: z
          .enum(["git", "api"], expect("git or api"))
          .default("git")
          .describe(
            "How each step's commit reaches GitHub: `git` pushes it; `api` has GitHub make it through its Git Data API and sign it (Verified), which meets a branch rule that requires signed commits.",
          ),
      },
      expect("a map of implement settings"),
    )
    .prefault({})
    .describe("How `/implement` (and the jobs that change code) work: the chain, the pull request, the repository's own commands."),
  budgets: z
    .strictObject(
      {
        maxTurns: positiveInt("a whole number above 0").default(DEFAULT_BUDGETS.maxTurns).describe("Model turns per job."),
        maxOutputTokens: positiveInt("a whole number above 0").default(DEFAULT_BUDGETS.maxOutputTokens).describe("Output tokens per job."),
        maxCostUsd: positive("a number of US dollars above 0").default(DEFAULT_BUDGETS.maxCostUsd).describe("Cost per job, in US dollars."),
        maxMinutes: positive("a number of minutes above 0").default(DEFAULT_BUDGETS.maxMinutes).describe("Minutes per job (waiting for an overloaded model counts)."),
        monthlyUsd: positive("a number of US dollars above 0, or null")
          .nullable()
          .default(null)
          .describe(
            "The repository's spend per calendar month (UTC), in US dollars, counted across every process; `null`: only the installation's cap (`CREWBOT_MONTHLY_BUDGET_USD`). Never above the installation's: where it is higher, the installation's cap counts. At 80 % a job's comment says so; at 100 % new jobs are refused until the month ends and automatic reviews end `neutral`.",
          ),
      },
      expect("a map of budgets"),
    )
    .prefault({})
    .describe("Limits per job, all agents together (a job that reaches one ends `⏸ Stopped`), and `monthlyUsd`, the repository's per month. An agent's own `maxTurns` (in its definition) caps that agent alone."),
  mcp: mcpConfig,
  models: z
    .record(z.string().describe("an agent name"), modelId.describe("a model id"), expect("a map of agent names to model ids"))
    .default({})
    .describe("A model per agent name (`scout`, `planner`, `worker`, `reviewer` or one of the repository's agents), over the agent's own `model`, e.g. `{ worker: claude-sonnet-4-5 }`."),
  sandbox: z
    .strictObject(
      {
        network: flag(false).describe(
          "Network for the agents' `bash` and the `check` commands: egress-only, the host's loopback, private and metadata addresses stay unreachable. `setup` commands always have it.",
        ),
      },
      expect("a map with network: true or false"),
    )
    .prefault({})
    .describe("The OS sandbox (bubblewrap) the agents' commands and the repository's commands run in."),
  ask: z
    .strictObject(
      {
        enabled: flag(true).describe("The read-only steps (scout, planner) of `/plan` and `/implement` may ask the person who asked a question (`ask_user`)."),
        timeoutHours: positive("a number of hours above 0")
          .max(720, expect("at most 720 hours (30 days)"))
          .default(24)
          .describe("Hours a question waits for an answer; then the job ends `⏸ Stopped: no answer`."),
      },
      expect("a map with enabled and timeoutHours"),
    )
    .prefault({})
    .describe("Questions from the agents to the person who asked, answered by ticking an option or replying `/answer <text>`."),
  transcripts: z
    .strictObject({ public: flag(false).describe("A public repository's job pages open without signing in with GitHub.") }, expect("a map with public: true or false"))
    .prefault({})
    .describe("The job pages (transcripts) that each progress comment links to."),
}).describe("`.github/crewbot.yml`: how crewbot works in this repository. Every key is optional; unknown keys are errors.");

/** The effective configuration: every key present, defaults filled in. */
export type CrewbotConfig = z.output<typeof ConfigSchema>;

/** The configuration of a repository without a config file. */
export const DEFAULT_CONFIG: CrewbotConfig = ConfigSchema.parse({});

/** The keys an object at `path` accepts, for "unknown key" messages; undefined when not an object. */
export function keysAt(path: readonly PropertyKey[]): string[] | undefined {
  let schema: z.ZodType = ConfigSchema;
  for (const key of [...path, null]) {
    let def = schema._zod.def as { type: string; innerType?: z.ZodType; shape?: Record<string, z.ZodType>; valueType?: z.ZodType; in?: z.ZodType };
    // Unwrap .default()/.prefault()/.optional() and .refine()'s pipe to the object (or map) inside.
    while ((def.innerType || def.in) && def.type !== "object") {
      schema = def.innerType ?? def.in!;
      def = schema._zod.def as typeof def;
    }
    // A map of names (`mcp.servers`): every name holds the same shape.
    if (def.type === "record" && def.valueType && key !== null) {
      schema = def.valueType;
      continue;
    }
    if (def.type !== "object" || !def.shape) return undefined;
    if (key === null) return Object.keys(def.shape);
    const next = def.shape[String(key)];
    if (!next) return undefined;
    schema = next;
  }
  return undefined;
}
