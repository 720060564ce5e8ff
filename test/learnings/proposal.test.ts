import { describe, expect, it } from "vitest";
import { DEFAULT_PREAMBLE, learningMarker, parseLearnings } from "../../src/learnings/learnings-file.js";
import { candidateLearningId, dueCandidates, learningSources, learningText, proposedFile, staleLearnings, startingFile } from "../../src/learnings/proposal.js";
import { DAY_MS } from "../../src/learnings/proposal.js";
import type { Candidate, CandidateSighting } from "../../src/learnings/types.js";

const sighting = (number: number, at: number, extra: Partial<CandidateSighting> = {}): CandidateSighting => ({
  source: "dismissed",
  url: `https://github.com/o/r/pull/${number}#discussion_r${number}`,
  number,
  by: "alice",
  at,
  kind: "raw sql",
  text: "won't fix: raw SQL is intended here",
  ...extra,
});
const candidate = (key: string, sightings: CandidateSighting[], extra: Partial<Candidate> = {}): Candidate => ({
  key,
  source: sightings[0]?.source ?? "dismissed",
  kind: "raw sql",
  paths: ["src/db/**"],
  sightings,
  firstSeen: sightings[0]?.at ?? 0,
  lastSeen: sightings.at(-1)?.at ?? 0,
  ...extra,
});

describe("dueCandidates", () => {
  const once = candidate("a", [sighting(1, 1)]);
  const twice = candidate("b", [sighting(2, 1), sighting(3, 2)]);
  const proposed = candidate("c", [sighting(4, 1), sighting(5, 2)], { proposedIn: "https://github.com/o/r/pull/9" });
  it.each([
    ["automatic: only those seen proposeAfter times", false, 2, ["b"]],
    ["automatic with proposeAfter 1", false, 1, ["a", "b"]],
    ["/crewbot learn: every one not proposed yet", true, 5, ["a", "b"]],
  ] as const)("%s", (_what, all, proposeAfter, keys) => {
    expect(dueCandidates([once, twice, proposed], { all, proposeAfter }).map((c) => c.key)).toEqual(keys);
  });
});

describe("staleLearnings", () => {
  const now = 1000 * DAY_MS;
  const merged = parseLearnings(["- used lately <!-- crewbot:learning:aaaaaaaa -->", "- used long ago <!-- crewbot:learning:bbbbbbbb -->", "- never used, old <!-- crewbot:learning:cccccccc -->", "- never used, new <!-- crewbot:learning:dddddddd -->"].join("\n")).learnings;
  const lastUses = new Map([
    ["aaaaaaaa", now - 10 * DAY_MS],
    ["bbbbbbbb", now - 91 * DAY_MS],
  ]);
  it("a last use older than staleDays, or no use and in the file staleDays ago", () => {
    const stale = staleLearnings(merged, { lastUses, heldThen: new Set(["bbbbbbbb", "cccccccc"]), now, staleDays: 90 });
    expect(stale.map((s) => [s.learning.id, s.lastUsed])).toEqual([
      ["bbbbbbbb", now - 91 * DAY_MS],
      ["cccccccc", undefined],
    ]);
  });
  it("nothing never used is stale when the file did not exist staleDays ago", () => {
    expect(staleLearnings(merged, { lastUses, heldThen: undefined, now, staleDays: 90 }).map((s) => s.learning.id)).toEqual(["bbbbbbbb"]);
  });
  it("a longer staleDays keeps them", () => {
    expect(staleLearnings(merged, { lastUses, heldThen: new Set(["cccccccc"]), now, staleDays: 365 }).map((s) => s.learning.id)).toEqual(["cccccccc"]);
  });
});

describe("startingFile", () => {
  const base = "# Ours\n\n- one <!-- crewbot:learning:11111111 -->\n- two <!-- crewbot:learning:22222222 -->\n";
  it("without an open pull request: the default branch's file", () => {
    expect(startingFile({ onDefault: base }).learnings.map((l) => l.id)).toEqual(["11111111", "22222222"]);
    expect(startingFile({}).learnings).toEqual([]);
  });
  it("with one: the branch's file (a person's edit kept), what the default branch added or removed since carried over", () => {
    const onBranch = "# Ours, edited\n\n- one, reworded by Bea <!-- crewbot:learning:11111111 -->\n- two <!-- crewbot:learning:22222222 -->\n- three <!-- crewbot:learning:33333333 -->\n";
    const onDefault = "# Ours\n\n- one <!-- crewbot:learning:11111111 -->\n- four, added on main <!-- crewbot:learning:44444444 -->\n";
    const start = startingFile({ onDefault, onBranch, atBase: base });
    expect(start.preamble).toEqual(["# Ours, edited"]);
    expect(start.learnings.map((l) => [l.id, l.text])).toEqual([
      ["11111111", "one, reworded by Bea"],
      ["33333333", "three"],
      ["44444444", "four, added on main"],
    ]);
  });
});

describe("proposedFile", () => {
  it("drops the removed ones, adds the new ones after, never an id twice", () => {
    const start = startingFile({ onDefault: "- one <!-- crewbot:learning:11111111 -->\n- two <!-- crewbot:learning:22222222 -->\n" });
    const file = proposedFile(start, [{ id: "11111111", text: "again" }, { id: "33333333", text: "three" }], new Set(["22222222"]));
    expect(file).toBe(`- one ${learningMarker("11111111")}\n- three ${learningMarker("33333333")}\n`);
  });

  it("without a file, starts from crewbot's preamble", () => {
    const file = proposedFile(startingFile({}), [{ id: "33333333", text: "three" }], new Set());
    expect(file).toBe(`${[...DEFAULT_PREAMBLE, "", `- three ${learningMarker("33333333")}`].join("\n")}\n`);
  });
});

describe("a learning's sources", () => {
  it("counts the sightings and links each thread once, oldest first", () => {
    const c = candidate("k", [sighting(41, 3), sighting(12, 1), sighting(40, 2), sighting(40, 2)]);
    expect(learningSources(c)).toBe(
      "(4 dismissals: [#12](https://github.com/o/r/pull/12#discussion_r12), [#40](https://github.com/o/r/pull/40#discussion_r40), [#41](https://github.com/o/r/pull/41#discussion_r41))",
    );
    expect(learningText("In `src/db/**`, raw SQL strings are intended: don't flag them.", candidate("k", [sighting(12, 1, { source: "rule" })], { source: "rule" }))).toBe(
      "In `src/db/**`, raw SQL strings are intended: don't flag them (1 reply: [#12](https://github.com/o/r/pull/12#discussion_r12))",
    );
  });
  it("caps the links", () => {
    const many = candidate("k", Array.from({ length: 13 }, (_, i) => sighting(i + 1, i)));
    expect(learningSources(many)).toMatch(/\[#10\]\([^)]+\), 3 more\)$/);
  });
  it("gives each candidate a stable id", () => {
    expect(candidateLearningId("dismissed:raw sql")).toBe(candidateLearningId("dismissed:raw sql"));
    expect(candidateLearningId("dismissed:raw sql")).toMatch(/^[0-9a-f]{8}$/);
    expect(candidateLearningId("dismissed:raw sql")).not.toBe(candidateLearningId("dismissed:other"));
  });
});
