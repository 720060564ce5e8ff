import { describe, expect, it } from "vitest";
import { codeBlock } from "../../src/text/github-markdown.js";
import { commandFailure, renderCommands, type CommandSummary } from "../../src/report/render-commands.js";

const Z = "\u200B"; // the invisible break that stops pings and comment openers

const cmd = (over: Partial<CommandSummary> & Pick<CommandSummary, "phase" | "command">): CommandSummary => ({
  ok: true,
  status: "exit code 0",
  tail: "",
  durationMs: 1000,
  ...over,
});

const DETAILS_OPEN = "<details><summary>Output (last lines)</summary>";

describe("renderCommands", () => {
  it("renders nothing without commands", () => {
    expect(renderCommands([])).toEqual([]);
  });

  it("renders setup then checks, whatever order they came in, with pass, fail and no output", () => {
    const sections = renderCommands([
      cmd({ phase: "check", command: "npm test", ok: false, status: "exit code 1", tail: "FAIL src/a.test.ts\n1 failed", durationMs: 65_000 }),
      cmd({ phase: "setup", command: "npm ci", tail: "added 3 packages", durationMs: 1_400 }),
      cmd({ phase: "check", command: "npm run lint", tail: "  \n\n", durationMs: 0 }),
    ]);
    expect(sections).toEqual([
      ["## Setup", "✅ `npm ci` · exit code 0 · 1s", DETAILS_OPEN, "", "```text", "added 3 packages", "```", "", "</details>"].join("\n"),
      [
        "## Checks",
        "❌ `npm test` · exit code 1 · 1m 05s",
        DETAILS_OPEN,
        "",
        "```text",
        "FAIL src/a.test.ts",
        "1 failed",
        "```",
        "",
        "</details>",
        "",
        "✅ `npm run lint` · exit code 0 · 0s · no output",
      ].join("\n"),
    ]);
  });

  it("renders only the phases that ran", () => {
    expect(renderCommands([cmd({ phase: "check", command: "make check", ok: false, status: "timed out after 600s", durationMs: 600_000 })])).toEqual([
      "## Checks\n❌ `make check` · timed out after 600s · 10m 00s · no output",
    ]);
    expect(renderCommands([cmd({ phase: "setup", command: "true" })])).toEqual(["## Setup\n✅ `true` · exit code 0 · 1s · no output"]);
  });

  it("keeps a tail with fences, mentions and comment openers inside its block", () => {
    const tail = "before\n```\n@octocat see <!-- job:1 -->\n````js\nafter";
    const [section] = renderCommands([cmd({ phase: "check", command: "npm test", ok: false, status: "exit code 1", tail })]);
    expect(section).toBe(
      [
        "## Checks",
        "❌ `npm test` · exit code 1 · 1s",
        DETAILS_OPEN,
        "",
        "`````text",
        "before",
        "```",
        `@${Z}octocat see <!-${Z}- job:1 -->`,
        "````js",
        "after",
        "`````",
        "",
        "</details>",
      ].join("\n"),
    );
    // Nothing after the opener can close the block: the only 5-backtick line after it is the closer.
    const lines = section!.split("\n");
    const open = lines.indexOf("`````text");
    expect(lines.slice(open + 1).filter((line) => /^ {0,3}`{5,}\s*$/.test(line))).toEqual(["`````"]);
    expect(section).not.toMatch(/(?<!\w)@(?=[A-Za-z0-9])/);
    expect(section).not.toContain("<!--");
  });

  it("neutralises the command and the status line too", () => {
    const [section] = renderCommands([
      cmd({ phase: "setup", command: "echo `hi` @bob <!-- x", ok: false, status: "killed <img src=x> by @admin", durationMs: 2_000 }),
    ]);
    expect(section).toBe(`## Setup\n❌ \`\`echo \`hi\` @${Z}bob <!-${Z}- x\`\` · killed &lt;img src=x> by @${Z}admin · 2s · no output`);
  });

  it("shortens a long command and a long status to one line each", () => {
    const [section] = renderCommands([cmd({ phase: "check", command: `echo ${"a".repeat(300)}`, status: `exit code 1 ${"b".repeat(200)}\nmore`, ok: false })]);
    const head = section!.split("\n")[1]!;
    expect(head).toBe(`❌ \`echo ${"a".repeat(194)}…\` · exit code 1 ${"b".repeat(107)}… · 1s · no output`);
  });

  it("separates several commands of one phase with a blank line", () => {
    const [section] = renderCommands([cmd({ phase: "setup", command: "a" }), cmd({ phase: "setup", command: "b", tail: "x" }), cmd({ phase: "setup", command: "c" })]);
    expect(section).toBe(
      ["## Setup", "✅ `a` · exit code 0 · 1s · no output", "", "✅ `b` · exit code 0 · 1s", DETAILS_OPEN, "", "```text", "x", "```", "", "</details>", "", "✅ `c` · exit code 0 · 1s · no output"].join("\n"),
    );
  });
});

describe("commandFailure", () => {
  it.each<[string, CommandSummary[], string | undefined]>([
    ["no commands", [], undefined],
    ["all passed", [cmd({ phase: "setup", command: "npm ci" }), cmd({ phase: "check", command: "npm test" })], undefined],
    [
      "the first failure, in order",
      [
        cmd({ phase: "setup", command: "npm ci" }),
        cmd({ phase: "check", command: "npm test", ok: false, status: "exit code 1" }),
        cmd({ phase: "check", command: "npm run lint", ok: false, status: "exit code 2" }),
      ],
      "check failed: npm test (exit code 1)",
    ],
    ["a setup failure", [cmd({ phase: "setup", command: "npm ci", ok: false, status: "timed out after 600s" })], "setup failed: npm ci (timed out after 600s)"],
    ["an 80-character command is kept whole", [cmd({ phase: "check", command: "c".repeat(80), ok: false, status: "exit code 1" })], `check failed: ${"c".repeat(80)} (exit code 1)`],
    ["an 81-character command is cut to 80", [cmd({ phase: "check", command: "c".repeat(81), ok: false, status: "exit code 1" })], `check failed: ${"c".repeat(79)}… (exit code 1)`],
    ["a long command is cut", [cmd({ phase: "setup", command: `npm ci && ${"x".repeat(200)}`, ok: false, status: "exit code 127" })], `setup failed: npm ci && ${"x".repeat(69)}… (exit code 127)`],
  ])("%s", (_name, results, reason) => {
    expect(commandFailure(results)).toBe(reason);
  });
});

describe("codeBlock", () => {
  it.each<[string, string, string]>([
    ["plain text", "hello\nworld", "```text\nhello\nworld\n```"],
    ["empty", "", "```text\n\n```"],
    ["CRLF and CR become LF", "a\r\nb\rc", "```text\na\nb\nc\n```"],
    ["a ``` fence inside gets a longer fence", "```\nx\n```", "````text\n```\nx\n```\n````"],
    ["the longest run inside decides", "```\n``````js\n````", "```````text\n```\n``````js\n````\n```````"],
    ["a fence indented up to 3 spaces counts", "   ````", "`````text\n   ````\n`````"],
    ["4 spaces is indented code, not a fence", "    ``````", "```text\n    ``````\n```"],
    ["backticks inside a line are no fence", "a ```` b", "```text\na ```` b\n```"],
    ["tildes cannot close a backtick fence", "~~~\nq", "```text\n~~~\nq\n```"],
    ["mentions are broken", "@octocat and @org/team", `\`\`\`text\n@${Z}octocat and @${Z}org/team\n\`\`\``],
    ["an email address is no mention", "me@example.com", "```text\nme@example.com\n```"],
    ["entity-encoded @ is broken", "&#64;a &#x40;b &commat;c", `\`\`\`text\n@${Z}a @${Z}b @${Z}c\n\`\`\``],
    ["comment openers are broken", "<!-- crewbot:job -->", `\`\`\`text\n<!-${Z}- crewbot:job -->\n\`\`\``],
    ["other HTML stays literal inside the block", "<details>", "```text\n<details>\n```"],
  ])("%s", (_name, text, block) => {
    expect(codeBlock(text)).toBe(block);
  });

  it("fences 150,000 fence lines (more than a function's arguments can hold) with a longer fence", () => {
    const text = "```\n".repeat(150_000);
    expect(codeBlock(text)).toBe(`\`\`\`\`text\n${text}\n\`\`\`\``);
  });
});
