/**
 * What the model sends as a tool's input: JSON of any shape (prototype keys, numbers at the edges,
 * wrong types), and inputs shaped like the result tools' — `submit_review`, `submit_summary`,
 * `submit_learnings`, `submit_plan`, `ask_user` — with lists at and far over their caps and
 * strings that break what renders them (runs of backticks in a suggestion, fences, markers).
 */
import fc from "fast-check";
import { TOOL_ENTRIES, type ToolName } from "../../src/tools/registry.js";
import { PROTOTYPE_KEYS, anyText, edgeNumber, hostileJson, hostileText, lengthNear } from "./hostile.js";

const said = hostileText({ max: 140_000, caps: [60, 120, 200, 400, 2_000], tokens: ["`", "``", "````", "\n```\n", "```suggestion", "<!--", "-->", "@user", "\r\n", "|", "\n", "[L:abc]", "crewbot:finding:"] });
const short = fc.oneof(anyText(20), fc.constantFrom("src/a.ts", "./src/a.ts", "", " ", "critical", "warning", "suggestion", "A", "B"));
const count = (caps: number[]) => lengthNear(120_000, [...caps, 100_000]);

/** A list of `item`s, its length often at the tool's cap, one past it, or a hundred thousand. */
function list<T>(item: fc.Arbitrary<T>, caps: number[]): fc.Arbitrary<T[]> {
  return fc.record({ few: fc.array(item, { maxLength: 8 }), length: count(caps) }).map(({ few, length }) => (few.length === 0 ? [] : Array.from({ length }, (_, i) => few[i % few.length]!)));
}

/** Some of a record's keys dropped, a prototype key or an unknown one added. */
function loosely(record: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<unknown> {
  return fc.record({ record, drop: fc.array(fc.nat(10), { maxLength: 2 }), extra: fc.option(fc.tuple(fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS), anyText(8)), hostileJson()), { nil: undefined }) }).map(({ record, drop, extra }) => {
    const keys = Object.keys(record);
    for (const i of drop) delete record[keys[i % Math.max(1, keys.length)]!];
    if (extra) Object.defineProperty(record, extra[0], { value: extra[1], enumerable: true, writable: true, configurable: true });
    return record;
  });
}

const line = fc.oneof(fc.integer({ min: 1, max: 60 }), edgeNumber());

const finding = loosely(
  fc.record({
    path: short,
    line,
    endLine: line,
    severity: fc.constantFrom("critical", "warning", "suggestion", "nit"),
    body: said,
    suggestion: fc.oneof(said, fc.constantFrom("", "\n", "  x\r\n  y\n", "`".repeat(200_000), "`a".repeat(150_000))),
    kind: said,
    learning: short,
  }),
);

const reviewInput = loosely(fc.record({ summary: said, findings: list(finding, [100, 101]), learnings: list(loosely(fc.record({ id: short, suppressed: edgeNumber() })), [100, 101]) }));

/** A review that passes validation, so what renders its findings (placement, suggestion blocks) reads the hostile parts. */
const validReview = fc.record({
  summary: said,
  findings: fc.array(fc.record({ path: fc.constant("src/a.ts"), line: fc.integer({ min: 1, max: 60 }), severity: fc.constantFrom("critical", "warning", "suggestion"), body: said.filter((b) => b.trim() !== ""), suggestion: fc.oneof(said, fc.constantFrom("`a".repeat(150_000), "```\n".repeat(150_000))) }), { minLength: 1, maxLength: 5 }),
});

const summaryInput = loosely(
  fc.record({
    what: said,
    walkthrough: list(loosely(fc.record({ files: said, change: said })), [60, 61]),
    effort: edgeNumber(),
    effortReason: said,
    risks: list(said, [10, 11]),
    diagram: loosely(fc.record({ participants: list(short, [2, 10, 11]), messages: list(loosely(fc.record({ from: short, to: short, text: said, reply: fc.boolean() })), [30, 31]) })),
  }),
);

const learningsInput = loosely(fc.record({ learnings: list(loosely(fc.record({ candidate: fc.oneof(short, fc.constantFrom("review:raw sql", "rule:always x")), text: said })), [50, 51]) }));
const planInput = loosely(fc.record({ goal: said, steps: list(said, [50, 51]), files: list(short, [50]), risks: list(said, [10]) }));
const askInput = loosely(fc.record({ question: said, options: list(said, [6, 7]) }));
const fileInput = loosely(fc.record({ path: short, content: said, oldText: said, newText: said, pattern: said, command: said, offset: edgeNumber(), limit: edgeNumber(), note: said, step: edgeNumber(), name: short }));

const SHAPED: Partial<Record<ToolName, fc.Arbitrary<unknown>>> = {
  submit_review: fc.oneof(reviewInput, validReview),
  submit_summary: summaryInput,
  submit_learnings: learningsInput,
  submit_plan: planInput,
  ask_user: askInput,
};

/** A tool's name and the input the model sent it. */
export const toolCall = fc.record({
  tool: fc.constantFrom(...TOOL_ENTRIES.map(([name]) => name)),
  any: fc.oneof({ weight: 1, arbitrary: hostileJson() }, { weight: 1, arbitrary: fileInput }),
  shaped: fc.boolean(),
}).chain(({ tool, any, shaped }) => (shaped && SHAPED[tool] ? SHAPED[tool]!.map((input) => ({ tool, input })) : fc.constant({ tool, input: any })));
