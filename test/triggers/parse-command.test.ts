import { describe, expect, it } from "vitest";
import { parseCommand, reviewScope } from "../../src/triggers/parse-command.js";

describe("parseCommand", () => {
  it.each([
    ["/plan", { kind: "plan", request: "" }],
    ["/PLAN add caching", { kind: "plan", request: "add caching" }],
    ["  /implement  use redis\nand keep it small", { kind: "implement", request: "use redis\nand keep it small" }],
    ["\n\n/review", { kind: "review", request: "" }],
    ["/plan\r\nsecond line", { kind: "plan", request: "second line" }],
    ["/crewbot help", { kind: "help" }],
    ["/crewbot", { kind: "help" }],
    ["/Crewbot CANCEL", { kind: "cancel" }],
    ["/crewbot learn", { kind: "learn" }],
    ["/crewbot LEARNINGS please", { kind: "learnings" }],
    ["/crewbot learned", { kind: "help", unknown: "learned" }],
    ["/crewbot dance now", { kind: "help", unknown: "dance" }],
  ])("%j → %j", (body, expected) => {
    expect(parseCommand(body)).toEqual(expected);
  });

  it.each([
    [""],
    ["   \n  "],
    ["please /plan this"],
    ["/planning ahead"],
    ["/deploy now"],
    ["> /plan\nquoted"],
    ["```\n/plan\n```"],
    ["~~~\n/implement\n~~~"],
    ["    /plan (indented code)"],
    ["plan"],
    ["/"],
  ])("%j → not ours", (body) => {
    expect(parseCommand(body)).toBeNull();
  });
});

describe("reviewScope", () => {
  it.each<[string, { full: boolean; request: string }]>([
    ["", { full: false, request: "" }],
    ["full", { full: true, request: "" }],
    ["FULL", { full: true, request: "" }],
    ["full look at the SQL", { full: true, request: "look at the SQL" }],
    ["full\nand the tests", { full: true, request: "and the tests" }],
    ["fully check the SQL", { full: false, request: "fully check the SQL" }],
    ["look at it in full", { full: false, request: "look at it in full" }],
  ])("%j", (request, scope) => {
    expect(reviewScope(request)).toEqual(scope);
    expect(reviewScope((parseCommand(`/review ${request}`) as { request: string }).request)).toEqual(scope);
  });
});
