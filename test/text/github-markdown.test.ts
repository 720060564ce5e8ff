import { describe, expect, it } from "vitest";
import { codeSpan, cutMiddle, safeBlock, safeLine } from "../../src/text/github-markdown.js";
import { inLinearTime } from "../helpers/linear-time.js";

const Z = "\u200B";

describe("safeLine", () => {
  it.each([
    ["plain text", "plain text"],
    ["hi @alice, cc @org/team", `hi @${Z}alice, cc @${Z}org/team`],
    ["me@example.com", "me@example.com"],
    ["(@bob)", `(@${Z}bob)`],
    ["&#64;carol &#x40;dan &commat;erin", `@${Z}carol @${Z}dan @${Z}erin`],
    ["<details><summary>x</summary>", "&lt;details>&lt;summary>x&lt;/summary>"],
    ["<!-- crewbot:job:x -->", "&lt;!-- crewbot:job:x -->"],
    ["`<div>` stays code", "`<div>` stays code"],
    ["`` <a> ` `` and <b>", "`` <a> ` `` and &lt;b>"],
    ["\\`<i>` is not code", "\\`&lt;i>` is not code"],
    ["`<!-- x -->` in code", `\`<!-${Z}- x -->\` in code`],
    ["see <https://example.com>, a < b", "see <https://example.com>, a < b"],
  ])("%j", (input, expected) => {
    expect(safeLine(input)).toBe(expected);
  });
});

describe("codeSpan", () => {
  it.each([
    ["npm test", "`npm test`"],
    ["echo `date`", "`` echo `date` ``"],
    ["a ``` b", "````a ``` b````"],
    ["mail @bob", `\`mail @${Z}bob\``],
  ])("%j", (input, expected) => {
    expect(codeSpan(input)).toBe(expected);
  });

  it("flattens and caps", () => {
    expect(codeSpan("a\n  b", 200)).toBe("`a b`");
    expect(codeSpan("x".repeat(300), 10)).toBe(`\`${"x".repeat(9)}…\``);
  });
});

describe("safeBlock", () => {
  it("makes task boxes plain text, in quotes and nested lists too", () => {
    expect(safeBlock("- [ ] a\n> - [x] b\n- * [X] c\n1. [ ] d\n- [link](x)")).toBe("- \\[ ] a\n> - \\[x] b\n- * \\[X] c\n1. \\[ ] d\n- [link](x)");
  });

  it("leaves fenced code alone but for mentions and comment openers", () => {
    expect(safeBlock("~~~\n<b> - [ ] @x <!--\n~~~")).toBe(`~~~\n<b> - [ ] @${Z}x <!-${Z}-\n~~~`);
  });

  it("escapes a fence that never closes, and treats its content as text", () => {
    expect(safeBlock("a\n````js\n<b>\n```")).toBe("a\n\\````js\n&lt;b>\n\\```");
  });

  it("escapes 10,000 fences that never close in linear time, and closes those that do", () => {
    expect(inLinearTime(() => safeBlock("````~\na\n".repeat(10_000)))).toBe("\\````~\na\n".repeat(10_000));
    expect(safeBlock("```js\n<b>\n````\n~~~~\n~~~\n```\n<i>")).toBe("```js\n<b>\n````\n\\~~~~\n\\~~~\n\\```\n&lt;i>");
  });
});

describe("cutMiddle", () => {
  const note = (n: number) => `[${n} cut]`;

  it("keeps short text", () => {
    expect(cutMiddle("abc", 10, note)).toBe("abc");
  });

  it("cuts whole lines from the middle when it can", () => {
    const text = Array.from({ length: 100 }, (_, i) => `line ${i}`).join("\n");
    const out = cutMiddle(text, 120, note);
    expect(out.length).toBeLessThanOrEqual(120);
    expect(out.startsWith("line 0\nline 1\n")).toBe(true);
    expect(out.endsWith("line 98\nline 99")).toBe(true);
    expect(out).toMatch(/\n\n\[\d+ cut\]\n\n/);
  });

  it("never splits a surrogate pair", () => {
    const out = cutMiddle("😀".repeat(100), 51, note);
    expect(out).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
  });
});
