import { describe, expect, it } from "vitest";
import { citationsIn, linkCitations, type Citation } from "../../src/report/render-answer.js";

const URL = (p: string) => `https://github.com/o/r/blob/abc/${p}`;
/** src/a.ts has 20 lines; nothing else exists. */
const check = (c: Citation) => (c.path !== "src/a.ts" ? "no such file at abc1234" : c.end > 20 ? "the file has 20 lines at abc1234" : undefined);
const link = (text: string) => linkCitations(text, check, URL);

describe("an answer's citations", () => {
  it.each([
    ["in backticks", "See `src/a.ts#L10-L14`.", "See [`src/a.ts#L10-L14`](https://github.com/o/r/blob/abc/src/a.ts#L10-L14)."],
    ["one line", "See `src/a.ts#L3`.", "See [`src/a.ts#L3`](https://github.com/o/r/blob/abc/src/a.ts#L3)."],
    ["bare", "It starts at src/a.ts#L3, then", "It starts at [src/a.ts#L3](https://github.com/o/r/blob/abc/src/a.ts#L3), then"],
    ["in brackets", "(src/a.ts#L1-L2)", "([src/a.ts#L1-L2](https://github.com/o/r/blob/abc/src/a.ts#L1-L2))"],
    ["a range written L10-14", "`src/a.ts#L10-14`", "[`src/a.ts#L10-L14`](https://github.com/o/r/blob/abc/src/a.ts#L10-L14)".replace("L10-L14`]", "L10-14`]")],
    ["with ./", "`./src/a.ts#L2`", "[`./src/a.ts#L2`](https://github.com/o/r/blob/abc/src/a.ts#L2)"],
    ["a link's target", "[the loop](src/a.ts#L5)", "[the loop](https://github.com/o/r/blob/abc/src/a.ts#L5)"],
    ["in a list", "- `src/a.ts#L1`: the entry", "- [`src/a.ts#L1`](https://github.com/o/r/blob/abc/src/a.ts#L1): the entry"],
  ])("%s becomes a permalink", (_what, text, expected) => {
    expect(link(text)).toBe(expected);
  });

  it.each([
    ["a missing file", "See `src/b.ts#L3`.", "See `src/b.ts#L3` _(not linked: no such file at abc1234)_."],
    ["a line past the end", "See `src/a.ts#L19-L25`.", "See `src/a.ts#L19-L25` _(not linked: the file has 20 lines at abc1234)_."],
    ["a bare one", "at src/b.ts#L1 now", "at `src/b.ts#L1` _(not linked: no such file at abc1234)_ now"],
    ["a link's target", "[the loop](src/b.ts#L5)", "[the loop] (`src/b.ts#L5` _(not linked: no such file at abc1234)_)"],
  ])("%s stays plain text with a note, never a broken link", (_what, text, expected) => {
    expect(link(text)).toBe(expected);
  });

  it.each([
    ["a fenced block", "```ts\n// see src/a.ts#L3\n```"],
    ["a tilde fence", "~~~\n`src/a.ts#L3`\n~~~"],
    ["a longer code span", "`grep src/a.ts#L3 x`"],
    ["a URL", "https://github.com/o/r/blob/main/src/a.ts#L3"],
    ["the agent's own link", "[`src/a.ts#L3`](https://example.com/x)"],
    ["a link's own text", "[src/a.ts#L3](https://example.com/x)"],
    ["a path that climbs out", "`../etc/passwd#L1`"],
    ["a word glued to it", "xsrc/a.ts#L3y"],
    ["an issue reference", "see #3 and #L3"],
  ])("%s is left as it is", (_what, text) => {
    expect(link(text)).toBe(text);
  });

  it("are found in order, outside code, each path as the commit names it", () => {
    expect(citationsIn("`src/a.ts#L1` and /src/b.ts#L2-L4\n```\nsrc/c.ts#L1\n```\n[x](./d.md#L9)")).toEqual([
      { path: "src/a.ts", start: 1, end: 1 },
      { path: "src/b.ts", start: 2, end: 4 },
      { path: "d.md", start: 9, end: 9 },
    ]);
  });
});
