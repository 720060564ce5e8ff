import { describe, expect, it } from "vitest";
import type { Finding } from "../../src/review/types.js";
import {
  fingerprint,
  fingerprintMarker,
  newFindings,
  normaliseCode,
  normaliseRule,
  postedFingerprints,
} from "../../src/review/fingerprint.js";

const finding = (path: string, line: number, text: string): Finding => ({ path, line, severity: "warning", text });

describe("normalise", () => {
  it.each<[string, string]>([
    ["Missing  NULL\n check", "missing null check"],
    ["  Off by 1 in loop  ", "off by 1 in loop"],
    ["Use `fooBar` not `FooBar`", "use `fooBar` not `FooBar`"],
    ["``a `b` c`` Here", "``a `b` c`` here"],
  ])("rule %j → %j", (text, expected) => {
    expect(normaliseRule(text)).toBe(expected);
  });

  it.each<[string | undefined, string]>([
    ["    if (x ==  y) {", "if (x == y) {"],
    ["\tfoo();\r", "foo();"],
    [undefined, ""],
  ])("code %j → %j", (line, expected) => {
    expect(normaliseCode(line)).toBe(expected);
  });
});

describe("fingerprint", () => {
  const base = fingerprint(finding("src/a.ts", 10, "Missing null check"), "  if (x) {");

  it("is 16 hex characters", () => {
    expect(base).toMatch(/^[0-9a-f]{16}$/);
  });

  it.each<[string, Finding, string | undefined, boolean]>([
    ["the same finding after its line moved", finding("src/a.ts", 57, "Missing null check"), "  if (x) {", true],
    ["re-indented code and re-wrapped text", finding("src/a.ts", 10, "missing\n  NULL check"), "if (x)   {", true],
    ["another path", finding("src/b.ts", 10, "Missing null check"), "  if (x) {", false],
    ["another text", finding("src/a.ts", 10, "Missing undefined check"), "  if (x) {", false],
    ["another number in the text", finding("src/a.ts", 10, "Missing null check (2)"), "  if (x) {", false],
    ["another code line", finding("src/a.ts", 10, "Missing null check"), "  if (y) {", false],
    ["no code line", finding("src/a.ts", 10, "Missing null check"), undefined, false],
  ])("%s → same: %s", (_name, f, code, same) => {
    expect(fingerprint(f, code) === base).toBe(same);
  });

  it("ignores severity and range", () => {
    const f: Finding = { path: "src/a.ts", line: 3, endLine: 9, severity: "critical", text: "Missing null check" };
    expect(fingerprint(f, "if (x) {")).toBe(base);
  });
});

describe("newFindings", () => {
  const code: Record<string, string> = { "a.ts:1": "one()", "a.ts:2": "two()", "a.ts:40": "one()" };
  const lineText = (path: string, line: number) => code[`${path}:${line}`];
  const earlier = [finding("a.ts", 1, "Bad call")];
  const posted = new Set(earlier.map((f) => fingerprint(f, lineText(f.path, f.line))));

  it.each<[string, Finding[], number[]]>([
    ["a finding posted before, now on another line, is dropped", [finding("a.ts", 40, "Bad call")], []],
    ["the same text on other code is new", [finding("a.ts", 2, "Bad call")], [2]],
    ["a repeat within one review is kept once", [finding("a.ts", 2, "x"), finding("a.ts", 2, "X")], [2]],
    ["order is kept", [finding("a.ts", 2, "b"), finding("a.ts", 1, "Bad call"), finding("a.ts", 9, "c")], [2, 9]],
    ["nothing", [], []],
  ])("%s", (_name, findings, lines) => {
    expect(newFindings(findings, posted, lineText).map((f) => f.line)).toEqual(lines);
  });

  it("does not add to the set it was given", () => {
    newFindings([finding("a.ts", 2, "new")], posted, lineText);
    expect(posted.size).toBe(1);
  });
});

describe("postedFingerprints", () => {
  it("reads markers back from bodies", () => {
    const a = fingerprint(finding("a.ts", 1, "x"), "y");
    const b = fingerprint(finding("b.ts", 1, "x"), "y");
    const bodies = [
      `**Warning** — x\n\n${fingerprintMarker(a)}`,
      `## crewbot review\n- one ${fingerprintMarker(b)}\n- two ${fingerprintMarker(a)}`,
      "<!-- crewbot:finding:nothex!!!!!!!!!! --> <!-- crewbot:job:123 --> plain text",
      "<!--crewbot:finding:0123456789abcdef-->",
    ];
    expect([...postedFingerprints(bodies)].sort()).toEqual([a, b, "0123456789abcdef"].sort());
  });
});
