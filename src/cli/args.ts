import { parseArgs } from "node:util";
import { DEFAULT_BUDGETS, type Budgets } from "../agent/budget.js";

export const USAGE = `Usage:
  crewbot run [--repo <path>] [--chain <name>] [--json] [options] "<request>"
  crewbot config validate [<file>]
  crewbot config print [<file>]
  crewbot config schema

Runs a chain of agents on a local git checkout, without GitHub. Plan and review chains
read the checkout in place; write chains (those with a worker) work on a fresh git
worktree of HEAD and print the resulting diff, never touching your working tree.

Options:
  --repo <path>            the repository (default: the current directory)
  --chain <name>           plan (default), implement, implement-and-review, review, or one of
                           the repository's .github/crewbot/prompts/<name>.md
  --json                   print one machine-readable JSON result on stdout
  --model <id>             use this model for every agent
  --max-turns <n>          budget for the whole run (default ${DEFAULT_BUDGETS.maxTurns})
  --max-output-tokens <n>  (default ${DEFAULT_BUDGETS.maxOutputTokens})
  --max-cost <usd>         (default ${DEFAULT_BUDGETS.maxCostUsd})
  --max-minutes <n>        (default ${DEFAULT_BUDGETS.maxMinutes})
  --network                network inside the bash sandbox: the outside world only (egress-only)
  --allow-unsandboxed      let a write chain run commands without an OS sandbox (trusted code only;
                           the same as CREWBOT_ALLOW_UNSANDBOXED=1)
  -h, --help               this text

Environment: ANTHROPIC_API_KEY (required), ANTHROPIC_BASE_URL, CREWBOT_DATA_DIR (default $XDG_CACHE_HOME/crewbot, else ~/.cache/crewbot);
CREWBOT_MODEL_PROVIDER=bedrock|vertex|foundry with its variables instead of the key (docs/operating.md, "Model providers").
CREWBOT_MCP_CONFIG: your MCP servers, as in the app; the checkout's .github/crewbot.yml mcp.servers run in the sandbox (docs/cli.md).

config validate checks a crewbot config file (default .github/crewbot.yml) and prints every
problem with its key; config print shows the effective config, defaults filled in; config
schema prints the file's JSON Schema, for editors (docs/configuration.md says how).

Exit status: 0 on success, 1 otherwise.`;

export interface RunArgs {
  command: "run";
  repo: string;
  chain: string;
  json: boolean;
  model?: string;
  budgets: Budgets;
  network: boolean;
  /** Commands may run without bubblewrap (the operator's explicit opt-in). */
  allowUnsandboxed: boolean;
  request: string;
}

export type ConfigArgs = { command: "config"; action: "validate" | "print"; file: string } | { command: "config"; action: "schema" };

export type ParsedArgs = RunArgs | ConfigArgs | { command: "help" } | { command: "error"; message: string };

function parseConfigArgs(rest: string[]): ConfigArgs | { command: "help" } | { command: "error"; message: string } {
  const [action, file, ...extra] = rest;
  if (action === "--help" || action === "-h" || action === "help") return { command: "help" };
  if (action === "schema") {
    return file === undefined ? { command: "config", action } : { command: "error", message: `config schema takes no file, got ${rest.length - 1}` };
  }
  if (action !== "validate" && action !== "print") {
    return { command: "error", message: action === undefined ? "config needs validate, print or schema" : `unknown config action "${action}"` };
  }
  if (extra.length > 0) return { command: "error", message: `config ${action} takes one file, got ${rest.length - 1}` };
  return { command: "config", action, file: file ?? ".github/crewbot.yml" };
}

const BUDGET_FLAGS = {
  "max-turns": "maxTurns",
  "max-output-tokens": "maxOutputTokens",
  "max-cost": "maxCostUsd",
  "max-minutes": "maxMinutes",
} as const;

/** Pure: argv (without node and the script) → what to do, or a message naming what is wrong. */
export function parseCliArgs(argv: string[]): ParsedArgs {
  if (argv.length === 0 || argv[0] === "-h" || argv[0] === "--help" || argv[0] === "help") {
    return { command: "help" };
  }
  const [command, ...rest] = argv;
  if (command === "config") return parseConfigArgs(rest);
  if (command !== "run") return { command: "error", message: `unknown command "${command}"` };

  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      allowPositionals: true,
      strict: true,
      options: {
        repo: { type: "string" },
        chain: { type: "string" },
        json: { type: "boolean" },
        model: { type: "string" },
        network: { type: "boolean" },
        "allow-unsandboxed": { type: "boolean" },
        help: { type: "boolean", short: "h" },
        ...Object.fromEntries(Object.keys(BUDGET_FLAGS).map((flag) => [flag, { type: "string" as const }])),
      },
    });
  } catch (error) {
    return { command: "error", message: (error as Error).message };
  }
  const { values, positionals } = parsed;
  if (values.help) return { command: "help" };

  const budgets: Budgets = { ...DEFAULT_BUDGETS };
  for (const [flag, key] of Object.entries(BUDGET_FLAGS)) {
    const raw = values[flag as keyof typeof values];
    if (raw === undefined) continue;
    const value = Number(raw);
    if (!Number.isFinite(value) || value <= 0) {
      return { command: "error", message: `--${flag} must be a positive number, got "${String(raw)}"` };
    }
    budgets[key] = value;
  }

  const request = positionals.join(" ").trim();
  if (request === "") return { command: "error", message: 'the request is missing: crewbot run "<request>"' };
  const chain = (values.chain as string | undefined) ?? "plan";
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(chain)) {
    return { command: "error", message: `--chain takes a chain name, got "${chain}"` };
  }
  return {
    command: "run",
    repo: (values.repo as string | undefined) ?? ".",
    chain,
    json: Boolean(values.json),
    model: values.model as string | undefined,
    budgets,
    network: Boolean(values.network),
    allowUnsandboxed: Boolean(values["allow-unsandboxed"]),
    request,
  };
}
