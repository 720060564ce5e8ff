import { mkdtemp, mkdir, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { interruptMessage, loadRules, parseRule, RULE_WINDOW_CHARS, RuleBook, StreamWatch } from "../../src/chain/rules.js";

const FILE = ".github/crewbot/rules/r.md";
const rule = (front: string, body = "Use the logger.") => `---\n${front}\n---\n${body}\n`;

describe("parseRule", () => {
  it("reads name, trigger, agents, repeat and gap, with once as the default", () => {
    const once = parseRule(rule("name: no-console\ntrigger: 'console\\.log'\nagents: [worker]"), FILE);
    expect(once).toMatchObject({ name: "no-console", trigger: "console\\.log", agents: ["worker"], repeat: "once", gap: 0, body: "Use the logger.", file: FILE });
    expect(once.matcher.test('{"content":"console.log(1)"}')).toBe(true);
    const gap = parseRule(rule("name: g\ntrigger: x\nagents: worker, reviewer\nrepeat: after-gap\ngap: 3"), FILE);
    expect(gap).toMatchObject({ agents: ["worker", "reviewer"], repeat: "after-gap", gap: 3 });
  });

  it.each([
    ["name: a", "trigger: is required"],
    ["trigger: x", "name: is required"],
    ["name: a\ntrigger: '[unclosed'", "trigger: not a usable regular expression: missing ]"],
    ["name: a\ntrigger: '(\\w+) \\1'", "(lookarounds and backreferences are not supported: they can make matching run for too long)"],
    ["name: a\ntrigger: '(?=a)b'", "trigger: not a usable regular expression: invalid perl operator"],
    ["name: a\ntrigger: '((a{100}){100}){100}'", "invalid repetition size: {100} (it could run for too long)"],
    [`name: a\ntrigger: '${"a".repeat(1001)}'`, "trigger: too long (1001 characters; at most 1000)"],
    ["name: a\ntrigger: x\nrepeat: always", 'repeat: must be "once" or "after-gap"'],
    ["name: a\ntrigger: x\nrepeat: after-gap", "gap: is required with repeat: after-gap"],
    ["name: a\ntrigger: x\ngap: 2", "gap: only applies to repeat: after-gap"],
    ["name: a\ntrigger: x\nrepeat: after-gap\ngap: 0", "gap: must be at least 1"],
    ["name: a\ntrigger: x\nagents: []", "agents: must name at least one agent"],
    ["name: a\ntrigger: x\nwhen: always", "when: unknown key (allowed: name, trigger, agents, repeat, gap)"],
  ])("refuses %j naming the file", (front, problem) => {
    expect(() => parseRule(rule(front), FILE)).toThrow(`${FILE}: `);
    expect(() => parseRule(rule(front), FILE)).toThrow(problem);
  });

  it("refuses a rule without a body", () => {
    expect(() => parseRule("---\nname: a\ntrigger: x\n---\n\n", FILE)).toThrow(`${FILE}: body: is empty`);
  });

  it("matches a classically catastrophic pattern in linear time (RE2 never backtracks)", () => {
    const nested = parseRule(rule("name: nested\ntrigger: '(a+)+$'"), FILE);
    expect(nested.matcher.test(`${"a".repeat(200_000)}!`)).toBe(false);
    expect(nested.matcher.test("aaa")).toBe(true);
  });
});

describe("loadRules", () => {
  const repo = async (files: Record<string, string>) => {
    const root = await mkdtemp(path.join(os.tmpdir(), "rules-"));
    for (const [name, text] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(root, name)), { recursive: true });
      await writeFile(path.join(root, name), text);
    }
    return root;
  };

  it("reads the rules sorted by file, none without the folder", async () => {
    const root = await repo({ ".github/crewbot/rules/b.md": rule("name: b\ntrigger: b"), ".github/crewbot/rules/a.md": rule("name: a\ntrigger: a"), ".github/crewbot/rules/README.md": "about" });
    expect((await loadRules(root)).map((r) => r.file)).toEqual([".github/crewbot/rules/a.md", ".github/crewbot/rules/b.md"]);
    expect(await loadRules(await repo({ "x.md": "x" }))).toEqual([]);
  });

  it("refuses a symlinked, an oversized and a duplicate rule by name", async () => {
    const linked = await repo({ ".github/crewbot/rules/a.md": rule("name: a\ntrigger: a") });
    await symlink("/etc/passwd", path.join(linked, ".github/crewbot/rules/b.md"));
    await expect(loadRules(linked)).rejects.toThrow(".github/crewbot/rules/b.md: file: is a symlink");
    const big = await repo({ ".github/crewbot/rules/big.md": rule("name: big\ntrigger: a", "x".repeat(300 * 1024)) });
    await expect(loadRules(big)).rejects.toThrow(".github/crewbot/rules/big.md: file: too large");
    const twice = await repo({ ".github/crewbot/rules/a.md": rule("name: a\ntrigger: a"), ".github/crewbot/rules/b.md": rule("name: a\ntrigger: b") });
    await expect(loadRules(twice)).rejects.toThrow('.github/crewbot/rules/b.md: name: "a" is already the name of .github/crewbot/rules/a.md');
  });
});

describe("StreamWatch and RuleBook", () => {
  const noConsole = parseRule(rule("name: no-console\ntrigger: 'console\\.log'\nagents: [worker]"), FILE);

  it("finds a match split across deltas, but not across blocks or a reset", () => {
    const watch = new StreamWatch([noConsole]);
    expect(watch.see(0, '{"content":"cons')).toBeUndefined();
    expect(watch.see(0, "ole.l")).toBeUndefined();
    expect(watch.see(0, "og(1)")).toBe(noConsole);
    const other = new StreamWatch([noConsole]);
    other.see(0, "console.");
    expect(other.see(1, "log")).toBeUndefined();
    other.see(1, "console.");
    other.reset();
    expect(other.see(1, "log")).toBeUndefined();
  });

  it("keeps a bounded window: a match longer than it is not found", () => {
    const long = parseRule(rule("name: long\ntrigger: 'start[^!]*end'"), FILE);
    const watch = new StreamWatch([long]);
    watch.see(0, "start");
    for (let i = 0; i < RULE_WINDOW_CHARS / 100; i++) expect(watch.see(0, "x".repeat(100))).toBeUndefined();
    expect(watch.see(0, "end")).toBeUndefined();
    expect(watch.see(0, "start and end")).toBe(long);
  });

  it("arms a rule only for its agents, once per job, or again after the gap of completed turns", () => {
    const gap = parseRule(rule("name: gap\ntrigger: x\nrepeat: after-gap\ngap: 2"), FILE);
    const book = new RuleBook([noConsole, gap]);
    expect(book.armed("worker").map((r) => r.name)).toEqual(["no-console", "gap"]);
    expect(book.armed("scout").map((r) => r.name)).toEqual(["gap"]);
    expect(book.fire(noConsole)).toEqual({ name: "no-console", message: interruptMessage(noConsole) });
    book.fire(gap);
    expect(book.watch("worker")).toBeUndefined();
    book.turnCompleted();
    expect(book.armed("worker")).toEqual([]);
    book.turnCompleted();
    expect(book.armed("worker").map((r) => r.name)).toEqual(["gap"]);
    expect(interruptMessage(noConsole)).toBe('<system-interrupt reason="rule" rule="no-console">\nUse the logger.\n</system-interrupt>');
  });
});
