import { describe, expect, it } from "vitest";
import { CONFIG_PATH, DEFAULT_CONFIG, keysAt, type CrewbotConfig } from "../../src/config/schema.js";
import { ConfigError, describeValue, keyName, parseConfig, validateConfig } from "../../src/config/validate.js";

/** DESIGN.md §5, written out: the config of a repository without a file. */
const DEFAULTS: CrewbotConfig = {
  commands: { plan: true, implement: true, review: true, ask: true, describe: true },
  triggers: { labels: { plan: "crewbot:plan", implement: "crewbot:implement" }, mention: true },
  learnings: { enabled: true, proposeAfter: 2, staleDays: 90 },
  review: {
    auto: true,
    authors: "trusted",
    drafts: false,
    ignoreAuthors: [],
    includeBots: [],
    ignoreLabels: [],
    ignoreTitles: [],
    paths: { include: ["**"], exclude: [] },
    debounceSeconds: 60,
    suggestions: true,
    failOn: "never",
    fixAction: true,
    prove: "auto",
    proofBudget: { max: 5, seconds: 120 },
    summary: "off",
    instructions: [],
    dependencies: { enabled: true, maxPackages: 20 },
    effort: "standard",
  },
  implement: { chain: "implement", draft: true, setup: [], check: [], allowWorkflowEdits: false, ciFix: { rounds: 2, waitMinutes: 10, branches: [] }, commits: "git" },
  budgets: { maxTurns: 200, maxOutputTokens: 400000, maxCostUsd: 3, maxMinutes: 30, monthlyUsd: null },
  mcp: { servers: {} },
  models: {},
  sandbox: { network: false },
  ask: { enabled: true, timeoutHours: 24 },
  transcripts: { public: false },
};

const TOP_KEYS = "commands, triggers, learnings, review, implement, budgets, mcp, models, sandbox, ask, transcripts";
const REVIEW_KEYS = "auto, authors, drafts, ignoreAuthors, includeBots, ignoreLabels, ignoreTitles, paths, debounceSeconds, suggestions, failOn, fixAction, prove, summary, proofBudget, instructions, dependencies, effort";

function problemsOf(input: unknown): string[] {
  const result = validateConfig(input);
  if (result.ok) throw new Error(`expected problems, got a valid config: ${JSON.stringify(result.config)}`);
  return result.problems;
}

function configOf(input: unknown): CrewbotConfig {
  const result = validateConfig(input);
  if (!result.ok) throw new Error(`expected a valid config, got: ${result.problems.join("; ")}`);
  return result.config;
}

describe("validateConfig defaults", () => {
  it.each<[string, unknown]>([
    ["an empty map", {}],
    ["an empty file (null)", null],
    ["undefined", undefined],
    ["empty sections", { commands: {}, review: { paths: {} }, implement: {}, budgets: {}, models: {}, sandbox: {} }],
  ])("%s → the defaults of DESIGN §5", (_name, input) => {
    expect(configOf(input)).toEqual(DEFAULTS);
  });

  it("DEFAULT_CONFIG is the same object", () => {
    expect(DEFAULT_CONFIG).toEqual(DEFAULTS);
  });

  it("fills defaults around the keys that are set", () => {
    expect(configOf({ review: { drafts: true }, implement: { check: ["npm test"] }, budgets: { maxCostUsd: 0.5 }, models: { worker: "claude-sonnet-4-5" } })).toEqual({
      ...DEFAULTS,
      review: { ...DEFAULTS.review, drafts: true },
      implement: { ...DEFAULTS.implement, check: ["npm test"] },
      budgets: { ...DEFAULTS.budgets, maxCostUsd: 0.5 },
      models: { worker: "claude-sonnet-4-5" },
    });
  });

  it("trims commands", () => {
    expect(configOf({ implement: { setup: ["  npm ci  "] } }).implement.setup).toEqual(["npm ci"]);
  });

  it("gives every parse its own lists, so one job cannot change another's defaults", () => {
    const a = configOf({});
    const b = configOf(null);
    a.implement.setup.push("rm -rf /");
    a.review.paths.include.push("x");
    expect(b.implement.setup).toEqual([]);
    expect(b.review.paths.include).toEqual(["**"]);
    expect(DEFAULT_CONFIG.implement.setup).toEqual([]);
  });

  it.each<[string, unknown]>([
    ["every key set", {
      commands: { plan: false, implement: false, review: false },
      review: { auto: false, drafts: true, ignoreAuthors: ["bob"], includeBots: ["dependabot[bot]"], paths: { include: ["src/**"], exclude: ["**/*.md"] }, debounceSeconds: 0 },
      implement: { chain: "implement-and-review", draft: false, setup: ["npm ci"], check: ["npm test", "npm run lint"], allowWorkflowEdits: true, ciFix: { rounds: 0, waitMinutes: 10 }, commits: "api" },
      budgets: { maxTurns: 1, maxOutputTokens: 1, maxCostUsd: 0.01, maxMinutes: 0.5, monthlyUsd: 50 },
      models: { worker: "claude-sonnet-4-5", planner: "claude-3-5-haiku@20241022" },
      sandbox: { network: true },
    }],
    ["debounce at its ceiling", { review: { debounceSeconds: 3600 } }],
    ["twenty commands", { implement: { check: Array.from({ length: 20 }, (_, i) => `echo ${i}`) } }],
    ["a 2000-character command", { implement: { setup: ["x".repeat(2000)] } }],
    ["a chain with an underscore", { implement: { chain: "my_chain2" } }],
    ["review instructions", { review: { instructions: [{ paths: ["src/db/**", "migrations/*.sql"], text: "Every query goes through the pool." }] } }],
  ])("accepts %s as written", (_name, input) => {
    const config = configOf(input);
    const section = (input as Record<string, Record<string, unknown>>);
    for (const [key, value] of Object.entries(section)) {
      expect((config as unknown as Record<string, Record<string, unknown>>)[key]).toMatchObject(value);
    }
  });
});

describe("validateConfig problems", () => {
  it.each<[string, unknown, string]>([
    // commands
    ["a command flag as a string", { commands: { plan: "yes" } }, '`commands.plan`: expected true or false, got "yes"'],
    ["commands as a list", { commands: ["plan"] }, "`commands`: expected a map of commands to true or false, got a list"],
    // review
    ["review as a string", { review: "off" }, '`review`: expected a map of review settings, got "off"'],
    ["review.auto as a number", { review: { auto: 1 } }, "`review.auto`: expected true or false, got the number 1"],
    ["review.authors not one of the two", { review: { authors: "friends" } }, '`review.authors`: expected trusted or everyone, got "friends"'],
    ["review.drafts as a string", { review: { drafts: "no" } }, '`review.drafts`: expected true or false, got "no"'],
    ["ignoreAuthors as one string", { review: { ignoreAuthors: "bob" } }, '`review.ignoreAuthors`: expected a list of logins (strings), got "bob"'],
    ["ignoreAuthors with a number", { review: { ignoreAuthors: ["a", 3] } }, "`review.ignoreAuthors[1]`: expected logins (strings), got the number 3"],
    ["includeBots as a map", { review: { includeBots: { a: 1 } } }, "`review.includeBots`: expected a list of bot logins (strings), got a map"],
    ["ignoreLabels as one string", { review: { ignoreLabels: "wip" } }, '`review.ignoreLabels`: expected a list of labels (strings), got "wip"'],
    ["ignoreTitles with a number", { review: { ignoreTitles: ["WIP", 1] } }, "`review.ignoreTitles[1]`: expected title words (strings), matched anywhere in the title, any case, got the number 1"],
    ["review.paths as a list", { review: { paths: ["**"] } }, "`review.paths`: expected a map with include and exclude, got a list"],
    ["paths.include as a string", { review: { paths: { include: "**" } } }, '`review.paths.include`: expected a list of glob patterns (strings), got "**"'],
    ["paths.exclude with a boolean", { review: { paths: { exclude: ["a", "b", true] } } }, "`review.paths.exclude[2]`: expected glob patterns (strings), got true"],
    ["debounce as a string", { review: { debounceSeconds: "60" } }, '`review.debounceSeconds`: expected a number of seconds, got "60"'],
    ["debounce fractional", { review: { debounceSeconds: 1.5 } }, "`review.debounceSeconds`: expected a whole number of seconds, got the number 1.5"],
    ["debounce negative", { review: { debounceSeconds: -1 } }, "`review.debounceSeconds`: expected 0 or more seconds, got the number -1"],
    ["debounce over an hour", { review: { debounceSeconds: 3601 } }, "`review.debounceSeconds`: expected at most 3600 seconds, got the number 3601"],
    ["failOn not a severity", { review: { failOn: "suggestion" } }, '`review.failOn`: expected never, critical, warning or reproduced, got "suggestion"'],
    ["prove neither auto nor off", { review: { prove: true } }, "`review.prove`: expected auto or off, got true"],
    ["effort not a level", { review: { effort: "max" } }, '`review.effort`: expected quick, standard or deep, got "max"'],
    ["proofBudget as a number", { review: { proofBudget: 5 } }, "`review.proofBudget`: expected a map with max and seconds, got the number 5"],
    ["proofBudget.max over 20", { review: { proofBudget: { max: 21 } } }, "`review.proofBudget.max`: expected at most 20 proofs, got the number 21"],
    ["proofBudget.seconds zero", { review: { proofBudget: { seconds: 0 } } }, "`review.proofBudget.seconds`: expected at least 1 second, got the number 0"],
    ["review.instructions as a map", { review: { instructions: { "src/**": "x" } } }, "`review.instructions`: expected a list of {paths, text} entries, got a map"],
    ["an instruction as a string", { review: { instructions: ["be strict"] } }, '`review.instructions[0]`: expected a map with paths (glob patterns) and text, got "be strict"'],
    ["an instruction without paths", { review: { instructions: [{ text: "x" }] } }, "`review.instructions[0].paths`: expected a list of glob patterns, got nothing (an empty value)"],
    ["an instruction with no glob", { review: { instructions: [{ paths: [], text: "x" }] } }, "`review.instructions[0].paths`: expected at least one glob pattern, got a list"],
    ["an instruction with a blank glob", { review: { instructions: [{ paths: ["src/**", " "], text: "x" }] } }, '`review.instructions[0].paths[1]`: expected a glob pattern, not an empty string, got " "'],
    ["an instruction's paths as one string", { review: { instructions: [{ paths: "src/**", text: "x" }] } }, '`review.instructions[0].paths`: expected a list of glob patterns, got "src/**"'],
    ["an instruction without text", { review: { instructions: [{ paths: ["src/**"] }] } }, "`review.instructions[0].text`: expected the instructions (a string), got nothing (an empty value)"],
    ["an instruction with empty text", { review: { instructions: [{ paths: ["src/**"], text: "  " }] } }, '`review.instructions[0].text`: expected instructions, not an empty string, got "  "'],
    [
      "an instruction over 4000 characters",
      { review: { instructions: [{ paths: ["src/**"], text: "x".repeat(4001) }] } },
      `\`review.instructions[0].text\`: expected instructions of at most 4000 characters, got "${"x".repeat(59)}…"`,
    ],
    ["an instruction with an unknown key", { review: { instructions: [{ paths: ["src/**"], text: "x", severity: "high" }] } }, "`review.instructions[0].severity`: unknown key"],
    ["51 instructions", { review: { instructions: Array.from({ length: 51 }, () => ({ paths: ["**"], text: "x" })) } }, "`review.instructions`: expected at most 50 entries, got a list"],
    // implement
    ["implement as a boolean", { implement: true }, "`implement`: expected a map of implement settings, got true"],
    ["chain as a number", { implement: { chain: 3 } }, "`implement.chain`: expected a chain name, got the number 3"],
    ["chain with a space", { implement: { chain: "bad name" } }, '`implement.chain`: expected a chain name such as implement or implement-and-review, got "bad name"'],
    ["chain as a path", { implement: { chain: "../x" } }, '`implement.chain`: expected a chain name such as implement or implement-and-review, got "../x"'],
    ["implement.draft as a string", { implement: { draft: "no" } }, '`implement.draft`: expected true or false, got "no"'],
    ["ciFix.rounds negative", { implement: { ciFix: { rounds: -1 } } }, "`implement.ciFix.rounds`: expected 0 (off) or more rounds, got the number -1"],
    ["ciFix.waitMinutes over an hour", { implement: { ciFix: { waitMinutes: 90 } } }, "`implement.ciFix.waitMinutes`: expected at most 60 minutes, got the number 90"],
    ["ciFix.waitMinutes a word", { implement: { ciFix: { waitMinutes: "ten" } } }, "`implement.ciFix.waitMinutes`: expected a number of minutes, got \"ten\""],
    ["allowWorkflowEdits as a string", { implement: { allowWorkflowEdits: "true" } }, '`implement.allowWorkflowEdits`: expected true or false, got "true"'],
    ["commits neither git nor api", { implement: { commits: "signed" } }, '`implement.commits`: expected git or api, got "signed"'],
    ["setup as one string", { implement: { setup: "npm ci" } }, '`implement.setup`: expected a list of commands (strings), got "npm ci"'],
    ["a setup command as a number", { implement: { setup: ["npm ci", 42] } }, "`implement.setup[1]`: expected a command (a string), got the number 42"],
    ["a setup command left empty", { implement: { setup: [null] } }, "`implement.setup[0]`: expected a command (a string), got nothing (an empty value)"],
    ["a blank check command", { implement: { check: ["npm test", "   "] } }, '`implement.check[1]`: expected a command, not an empty string, got "   "'],
    ["an empty check command", { implement: { check: [""] } }, '`implement.check[0]`: expected a command, not an empty string, got ""'],
    ["a command as a map", { implement: { check: [{ run: "x" }] } }, "`implement.check[0]`: expected a command (a string), got a map"],
    ["21 check commands", { implement: { check: Array.from({ length: 21 }, () => "x") } }, "`implement.check`: expected at most 20 commands, got a list"],
    [
      "a 2001-character command",
      { implement: { setup: ["x".repeat(2001)] } },
      `\`implement.setup[0]\`: expected a command of at most 2000 characters, got "${"x".repeat(59)}…"`,
    ],
    // budgets
    ["budgets as a number", { budgets: 5 }, "`budgets`: expected a map of budgets, got the number 5"],
    ["maxTurns zero", { budgets: { maxTurns: 0 } }, "`budgets.maxTurns`: expected a whole number above 0, got the number 0"],
    ["maxTurns fractional", { budgets: { maxTurns: 2.5 } }, "`budgets.maxTurns`: expected a whole number above 0, got the number 2.5"],
    ["maxTurns as a string", { budgets: { maxTurns: "60" } }, '`budgets.maxTurns`: expected a whole number above 0, got "60"'],
    ["maxTurns infinite (YAML .inf)", { budgets: { maxTurns: Infinity } }, "`budgets.maxTurns`: expected a whole number above 0, got the number Infinity"],
    ["maxOutputTokens negative", { budgets: { maxOutputTokens: -5 } }, "`budgets.maxOutputTokens`: expected a whole number above 0, got the number -5"],
    ["maxCostUsd negative", { budgets: { maxCostUsd: -1 } }, "`budgets.maxCostUsd`: expected a number of US dollars above 0, got the number -1"],
    ["maxCostUsd zero", { budgets: { maxCostUsd: 0 } }, "`budgets.maxCostUsd`: expected a number of US dollars above 0, got the number 0"],
    ["maxCostUsd as a string with $", { budgets: { maxCostUsd: "$3" } }, '`budgets.maxCostUsd`: expected a number of US dollars above 0, got "$3"'],
    ["maxCostUsd infinite", { budgets: { maxCostUsd: Infinity } }, "`budgets.maxCostUsd`: expected a number of US dollars above 0, got the number Infinity"],
    ["maxMinutes as a string", { budgets: { maxMinutes: "30" } }, '`budgets.maxMinutes`: expected a number of minutes above 0, got "30"'],
    ["maxMinutes NaN (YAML .nan)", { budgets: { maxMinutes: NaN } }, "`budgets.maxMinutes`: expected a number of minutes above 0, got the number NaN"],
    ["monthlyUsd zero", { budgets: { monthlyUsd: 0 } }, "`budgets.monthlyUsd`: expected a number of US dollars above 0, or null, got the number 0"],
    ["monthlyUsd as a string with $", { budgets: { monthlyUsd: "$50" } }, '`budgets.monthlyUsd`: expected a number of US dollars above 0, or null, got "$50"'],
    // models
    ["models as a list", { models: ["claude-sonnet-4-5"] }, "`models`: expected a map of agent names to model ids, got a list"],
    ["a model as a number", { models: { worker: 4 } }, "`models.worker`: expected a model id, got the number 4"],
    ["a model id with a space", { models: { worker: "claude sonnet" } }, '`models.worker`: expected a model id such as claude-sonnet-4-5, got "claude sonnet"'],
    ["a model id starting with a dash", { models: { planner: "-x" } }, '`models.planner`: expected a model id such as claude-sonnet-4-5, got "-x"'],
    ["an empty model id", { models: { worker: "" } }, '`models.worker`: expected a model id such as claude-sonnet-4-5, got ""'],
    [
      "a model id over 100 characters",
      { models: { worker: `a${"b".repeat(100)}` } },
      `\`models.worker\`: expected a model id such as claude-sonnet-4-5, got "a${"b".repeat(58)}…"`,
    ],
    // sandbox
    ["sandbox as a boolean", { sandbox: true }, "`sandbox`: expected a map with network: true or false, got true"],
    ["sandbox.network as a number", { sandbox: { network: 1 } }, "`sandbox.network`: expected true or false, got the number 1"],
    ["sandbox.network as a string", { sandbox: { network: "off" } }, '`sandbox.network`: expected true or false, got "off"'],
  ])("%s → one problem naming the key", (_name, input, problem) => {
    expect(problemsOf(input)).toEqual([problem]);
  });

  it.each<[string, string]>([
    ["\\n", "npm ci\nnpm test"],
    ["\\r\\n", "npm ci\r\nnpm test"],
    ["\\r", "npm ci\rnpm test"],
    ["NUL", "npm ci\0"],
  ])("refuses a command with %s in it", (_name, command) => {
    const problems = problemsOf({ implement: { check: ["ok", command] } });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^`implement\.check\[1\]`: expected a command on one line \(write several commands as several list items\), got "/);
  });

  it.each<[string, unknown]>([
    ["a command flag", { commands: { review: null } }],
    ["a whole section", { implement: null }],
    ["a budget", { budgets: { maxOutputTokens: null } }],
    ["models", { models: null }],
    ["a nested map", { review: { paths: null } }],
  ])("%s left empty (all its lines commented out) is the default", (_name, input) => {
    expect(validateConfig(input)).toEqual({ ok: true, config: DEFAULT_CONFIG });
  });

  it("a multi-line block scalar (YAML `|`) is refused as one command", () => {
    expect(problemsOf({ implement: { setup: ["npm ci\nnpm run build\n"] } })).toEqual([
      '`implement.setup[0]`: expected a command on one line (write several commands as several list items), got "npm ci\\nnpm run build\\n"',
    ]);
  });

  it.each<[string, unknown, string]>([
    ["a list", ["plan"], "`(top level)`: expected a map of settings (see DESIGN.md §5), got a list"],
    ["a string", "review: true", '`(top level)`: expected a map of settings (see DESIGN.md §5), got "review: true"'],
    ["a number", 5, "`(top level)`: expected a map of settings (see DESIGN.md §5), got the number 5"],
    ["a boolean", true, "`(top level)`: expected a map of settings (see DESIGN.md §5), got true"],
  ])("a file that is %s is refused as a whole", (_name, input, problem) => {
    expect(problemsOf(input)).toEqual([problem]);
  });

  it.each<[string, unknown, string[]]>([
    ["a top-level key", { reviews: { auto: false } }, [`\`reviews\`: unknown key; expected one of ${TOP_KEYS}`]],
    ["_extends (only GitHub follows it)", { _extends: ".github" }, [`\`_extends\`: unknown key; expected one of ${TOP_KEYS}`]],
    ["a command name", { commands: { deploy: true } }, ["`commands.deploy`: unknown key; expected one of plan, implement, review, ask, describe"]],
    ["two review keys", { review: { foo: 1, bar: 2 } }, [`\`review.foo\`: unknown key; expected one of ${REVIEW_KEYS}`, `\`review.bar\`: unknown key; expected one of ${REVIEW_KEYS}`]],
    ["a key two levels down", { review: { paths: { only: ["x"] } } }, ["`review.paths.only`: unknown key; expected one of include, exclude"]],
    ["an implement key", { implement: { test: ["npm test"] } }, ["`implement.test`: unknown key; expected one of chain, draft, setup, check, allowWorkflowEdits, ciFix, commits"]],
    ["a budget key", { budgets: { turns: 1 } }, ["`budgets.turns`: unknown key; expected one of maxTurns, maxOutputTokens, maxCostUsd, maxMinutes, monthlyUsd"]],
    ["a sandbox key next to a good one", { sandbox: { network: false, other: 1 } }, ["`sandbox.other`: unknown key; expected one of network"]],
  ])("an unknown key: %s", (_name, input, problems) => {
    expect(problemsOf(input)).toEqual(problems);
  });

  it("any agent name is a models key", () => {
    expect(configOf({ models: { "my-agent": "claude-sonnet-4-5", scout: "us.anthropic.claude-3-5-haiku:1", x: "vertex/claude@2024" } }).models).toEqual({
      "my-agent": "claude-sonnet-4-5",
      scout: "us.anthropic.claude-3-5-haiku:1",
      x: "vertex/claude@2024",
    });
  });

  it.each<[string, string]>([
    ["plain", "claude-sonnet-4-5"],
    ["dated with @", "claude-3-5-haiku@20241022"],
    ["with dots, colons and slashes", "anthropic.claude-v2:1/x_y"],
    ["one character", "c"],
    ["100 characters", `c${"x".repeat(99)}`],
  ])("accepts a model id: %s", (_name, id) => {
    expect(configOf({ models: { worker: id } }).models).toEqual({ worker: id });
  });

  it.each<[string, string]>([
    ["with a newline", "claude\nsonnet"],
    ["starting with a dot", ".claude"],
    ["with a backtick", "claude`x`"],
    ["with a semicolon", "claude;rm"],
    ["101 characters", `c${"x".repeat(100)}`],
  ])("refuses a model id %s", (_name, id) => {
    const problems = problemsOf({ models: { worker: id } });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^`models\.worker`: expected a model id such as claude-sonnet-4-5, got "/);
  });

  it("reports every problem in the file, each with its key", () => {
    expect(
      problemsOf({
        commands: { plan: "yes" },
        review: { auto: "x", foo: 1 },
        implement: { setup: ["ok", 1] },
        budgets: { maxTurns: 0 },
        bogus: true,
      }),
    ).toEqual(
      expect.arrayContaining([
        '`commands.plan`: expected true or false, got "yes"',
        '`review.auto`: expected true or false, got "x"',
        `\`review.foo\`: unknown key; expected one of ${REVIEW_KEYS}`,
        "`implement.setup[1]`: expected a command (a string), got the number 1",
        "`budgets.maxTurns`: expected a whole number above 0, got the number 0",
        `\`bogus\`: unknown key; expected one of ${TOP_KEYS}`,
      ]),
    );
    expect(problemsOf({ commands: { plan: "yes" }, review: { auto: "x", foo: 1 }, implement: { setup: ["ok", 1] }, budgets: { maxTurns: 0 }, bogus: true })).toHaveLength(6);
  });
});

describe("keyName", () => {
  it.each<[PropertyKey[], string]>([
    [[], "(top level)"],
    [["review"], "review"],
    [["review", "paths", "include"], "review.paths.include"],
    [["implement", "setup", 1], "implement.setup[1]"],
    [["a", 0, 2, "b"], "a[0][2].b"],
    [[3], "[3]"],
  ])("%j → %s", (path, name) => {
    expect(keyName(path)).toBe(name);
  });
});

describe("describeValue", () => {
  it.each<[string, unknown, string]>([
    ["null", null, "nothing (an empty value)"],
    ["undefined", undefined, "nothing (an empty value)"],
    ["a list", [1, 2], "a list"],
    ["an empty list", [], "a list"],
    ["a map", { a: 1 }, "a map"],
    ["true", true, "true"],
    ["false", false, "false"],
    ["zero", 0, "the number 0"],
    ["a negative fraction", -1.5, "the number -1.5"],
    ["an empty string", "", '""'],
    ["a string", "yes", '"yes"'],
    ["60 characters, kept whole", "y".repeat(60), `"${"y".repeat(60)}"`],
    ["61 characters, cut to 60", "y".repeat(61), `"${"y".repeat(59)}…"`],
  ])("%s", (_name, value, text) => {
    expect(describeValue(value)).toBe(text);
  });
});

describe("keysAt", () => {
  it.each<[PropertyKey[], string[] | undefined]>([
    [[], ["commands", "triggers", "learnings", "review", "implement", "budgets", "mcp", "models", "sandbox", "ask", "transcripts"]],
    [["mcp", "servers", "docs"], ["command", "args", "roles", "tools"]],
    [["commands"], ["plan", "implement", "review", "ask", "describe"]],
    [["review"], ["auto", "authors", "drafts", "ignoreAuthors", "includeBots", "ignoreLabels", "ignoreTitles", "paths", "debounceSeconds", "suggestions", "failOn", "fixAction", "prove", "summary", "proofBudget", "instructions", "dependencies", "effort"]],
    [["review", "paths"], ["include", "exclude"]],
    [["implement"], ["chain", "draft", "setup", "check", "allowWorkflowEdits", "ciFix", "commits"]],
    [["budgets"], ["maxTurns", "maxOutputTokens", "maxCostUsd", "maxMinutes", "monthlyUsd"]],
    [["sandbox"], ["network"]],
    [["models"], undefined],
    [["review", "auto"], undefined],
    [["implement", "setup"], undefined],
    [["nope"], undefined],
    [["review", "nope", "deeper"], undefined],
  ])("%j", (path, keys) => {
    expect(keysAt(path)).toEqual(keys);
  });
});

describe("parseConfig", () => {
  it("returns the config with defaults filled in", () => {
    expect(parseConfig({ sandbox: { network: true } })).toEqual({ ...DEFAULTS, sandbox: { network: true } });
    expect(parseConfig(null)).toEqual(DEFAULTS);
  });

  it("throws a ConfigError naming the default file and every problem", () => {
    let caught: unknown;
    try {
      parseConfig({ budgets: { maxTurns: 0 }, extra: 1 });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const error = caught as ConfigError;
    expect(error.name).toBe("ConfigError");
    expect(error.file).toBe(CONFIG_PATH);
    expect(CONFIG_PATH).toBe(".github/crewbot.yml");
    expect(error.problems).toEqual([
      "`budgets.maxTurns`: expected a whole number above 0, got the number 0",
      `\`extra\`: unknown key; expected one of ${TOP_KEYS}`,
    ]);
    expect(error.message).toBe(`.github/crewbot.yml is invalid: ${error.problems.join("; ")}`);
  });

  it("names the file it was given", () => {
    expect(() => parseConfig([], "acme/.github: .github/crewbot.yml")).toThrow(
      expect.objectContaining({
        file: "acme/.github: .github/crewbot.yml",
        problems: ["`(top level)`: expected a map of settings (see DESIGN.md §5), got a list"],
      }),
    );
  });
});
