/**
 * Every kind of job the queue holds, and the command, if any, a person starts it with. `JobKind`,
 * the queue's check of a new job (new-job.ts), command parsing (triggers/parse-command.ts and
 * comment-command.ts), the help text (report/render.ts) and the config's `commands` key
 * (config/schema.ts) all derive from this table, so a new kind is one row here (and its job in
 * jobs/). Data only, importing nothing: the config schema reads it too.
 */

/** A line of the `/crewbot help` table. */
export interface HelpRow {
  usage: string;
  where: string;
  what: string;
}

export interface JobCommand {
  /** Works on issues too; when false, the command on an issue is answered instead of run. */
  onIssues: boolean;
  /** Its lines of `/crewbot help`: the command's forms, where each works, what it does. */
  help: readonly HelpRow[];
  /** What `commands.<kind>` switches, for maintainers (docs/configuration.md, the JSON Schema). */
  config: string;
}

/**
 * A read-only job that answers in its progress comment: the chain it runs (a bundled prompt in
 * prompts/, or a repository's) and the task's verb. Such a kind needs no job file: the answer job
 * (jobs/answer-job.ts) runs it.
 */
export interface JobAnswer {
  chain: string;
  /** The task when the request is empty: `<task> issue #n` (and after the request otherwise). */
  task: string;
}

export interface JobKindRow {
  command: JobCommand | null;
  answer?: JobAnswer;
}

export const JOB_KINDS = {
  plan: {
    command: {
      onIssues: true,
      config: "`/plan` on an issue or a pull request (and the plan label): the scout and the planner write a plan, read-only.",
      help: [
        {
          usage: "/plan [instructions]",
          where: "issue or pull request",
          what: "Reads the code and answers with a plan as a task list, read-only. Ticking its approve box starts `/implement` with exactly that plan.",
        },
      ],
    },
  },
  /** Also the job of an approved plan and of a "Fix these findings" click, which no command starts. */
  implement: {
    command: {
      onIssues: true,
      config:
        "`/implement` on an issue or a pull request (and the implement label, and a plan's approve box): the worker commits the change on a branch and opens or updates a pull request.",
      help: [
        {
          usage: "/implement [instructions]",
          where: "issue",
          what: "Plans, then changes the code on a new branch `crewbot/issue-<n>-…` and opens a draft pull request that closes the issue.",
        },
        {
          usage: "/implement <feedback>",
          where: "pull request, or a review comment",
          what: "Changes the pull request's own branch (branches of this repository only).",
        },
      ],
    },
  },
  /** Also the automatic review of a pull_request event and the answer to a reply in crewbot's review thread. */
  review: {
    command: {
      onIssues: false,
      config: "`/review` on a pull request. Automatic reviews are not a command: `review.auto` decides them.",
      help: [
        {
          usage: "/review",
          where: "pull request",
          what: "Reviews the changes, read-only, and posts a pull-request review: the whole pull request the first time, after that what changed since crewbot's last review. A finding posted before is not posted again.",
        },
        {
          usage: "/review full",
          where: "pull request",
          what: "Reviews the whole pull request again (findings posted before are still not repeated).",
        },
      ],
    },
  },
  /** Also a comment that starts by mentioning the app with text that names no command (`@crewbot why …`). */
  ask: {
    command: {
      onIssues: true,
      config: "`/ask` on an issue or a pull request (and a mention of the app that names no command): a read-only agent answers in one comment, citing code as permalinks.",
      help: [
        {
          usage: "/ask <question>",
          where: "issue or pull request",
          what: "Reads the code (on a pull request: its head and diff), read-only, and answers in one comment; every place it cites is a permalink at the commit it read.",
        },
      ],
    },
    answer: { chain: "ask", task: "Answer this question about" },
  },
  /** Also the summary of an automatic review with `review.summary: auto`, which runs inside that review's job. */
  describe: {
    command: {
      onIssues: false,
      config: "`/describe` on a pull request: the describer writes or refreshes crewbot's summary block in the pull request's description.",
      help: [
        {
          usage: "/describe",
          where: "pull request",
          what: "Writes or refreshes crewbot's summary block in the description (what and why, a walkthrough, effort, risks, a sequence diagram when a flow across modules changed). Text outside the block is never touched; a block edited by hand is left as it is.",
        },
      ],
    },
  },
  /** crewbot's own pull request failed its checks: a check suite starts it, never a command. */
  "ci-fix": { command: null },
  /**
   * The learnings pull request (and, with `learn.action: "list"`, the list of merged learnings):
   * `/crewbot learn` and `/crewbot learnings` (subcommands, like `cancel`) or a candidate that
   * became due start it, never a command of its own name.
   */
  learn: { command: null },
} as const satisfies Record<string, JobKindRow>;

/** `ci-fix`: crewbot's own pull request failed its checks; the worker fixes them on its branch. */
export type JobKind = keyof typeof JOB_KINDS;

/** The job kinds a person starts with a command of the same name (`/plan`); the keys of config `commands`. */
export type CommandKind = { [K in JobKind]: (typeof JOB_KINDS)[K]["command"] extends null ? never : K }[JobKind];

/** The job kinds answered by the answer job (their row names an `answer`). */
export type AnswerKind = { [K in JobKind]: (typeof JOB_KINDS)[K] extends { answer: JobAnswer } ? K : never }[JobKind];

/**
 * What the rest reads of a table of job kinds. Made from the table, so a test can make it from a
 * table with a kind of its own (a fixture's row) and see it parsed, enqueued and run.
 */
export function jobKindsOf<K extends string>(table: Record<K, JobKindRow>) {
  const names = Object.keys(table) as K[];
  const isJobKind = (word: string): word is K => Object.hasOwn(table, word);
  const isCommandKind = (word: string): boolean => isJobKind(word) && table[word].command !== null;
  return {
    JOB_KIND_NAMES: names,
    isJobKind,
    isCommandKind,
    COMMAND_KINDS: names.filter(isCommandKind),
    jobCommand: (kind: K): JobCommand => table[kind].command!,
    jobAnswer: (kind: string): JobAnswer | undefined => (isJobKind(kind) ? table[kind].answer : undefined),
  };
}

const KINDS = jobKindsOf<JobKind>(JOB_KINDS);

export const JOB_KIND_NAMES: readonly JobKind[] = KINDS.JOB_KIND_NAMES;

export const isJobKind: (word: string) => word is JobKind = KINDS.isJobKind;

export const isCommandKind = KINDS.isCommandKind as (word: string) => word is CommandKind;

export const COMMAND_KINDS = KINDS.COMMAND_KINDS as readonly CommandKind[];

export const jobCommand: (kind: CommandKind) => JobCommand = KINDS.jobCommand;

/** What an answer kind's job runs; undefined for a kind with a job file of its own. */
export const jobAnswer: (kind: string) => JobAnswer | undefined = KINDS.jobAnswer;
