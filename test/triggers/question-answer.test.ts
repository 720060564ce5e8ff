import { describe, expect, it } from "vitest";
import { parseCommand } from "../../src/triggers/parse-command.js";
import { detectTick } from "../../src/triggers/question-answer.js";
import { renderQuestion } from "../../src/report/render-question.js";
import type { CommentEditedPayload } from "../../src/plan/approval.js";

const body = renderQuestion({ jobId: "job0000000000001", asker: "alice", agent: "planner", question: "Which @bob?\n- [ ] sneaky", options: ["A", "B", "C"], expiresAt: Date.UTC(2026, 0, 1) });
const tickLine = (text: string, n: number) => {
  let seen = 0;
  return text.split("\n").map((l) => (l.startsWith("- [ ] ") && ++seen === n ? `- [x] ${l.slice(6)}` : l)).join("\n");
};
const payload = (from: string | undefined, to: string, over: Partial<{ sender: string; senderType: string; author: string; authorType: string }> = {}): CommentEditedPayload => ({
  action: "edited",
  ...(from === undefined ? {} : { changes: { body: { from } } }),
  comment: { id: 9, body: to, user: { login: over.author ?? "crewbot[bot]", type: over.authorType ?? "Bot" } },
  installation: { id: 1 },
  sender: { login: over.sender ?? "alice", type: over.senderType ?? "User" },
});

describe("the question comment", () => {
  it("mentions the requester, keeps the model's text from mentioning or adding boxes, and lists the options as task items", () => {
    const lines = body.split("\n");
    expect(lines[0]).toBe("@alice, the planner has a question before it goes on:");
    expect(lines[1]).toBe("<!-- crewbot:question:job0000000000001 -->");
    expect(body).not.toContain(" @bob");
    expect(body).toContain("> - \\[ ] sneaky");
    expect(body).toContain("- [ ] A\n- [ ] B\n- [ ] C");
    expect(body).toContain("2026-01-01T00:00:00Z");
  });
});

describe("detectTick", () => {
  it.each([
    ["a tick of the second option", payload(body, tickLine(body, 2)), { answered: true, option: 2, jobId: "job0000000000001", by: "alice" }],
    ["a tick of the third option with CRLF", payload(body, tickLine(body, 3).replace(/\n/g, "\r\n")), { answered: true, option: 3 }],
    ["two boxes at once", payload(body, tickLine(tickLine(body, 1), 1)), { answered: false, reason: "more than one box changed" }],
    ["a second tick", payload(tickLine(body, 1), tickLine(tickLine(body, 1), 1)), { answered: false, reason: "an option was already ticked" }],
    ["an untick", payload(tickLine(body, 1), body), { answered: false, reason: "not an option ticked" }],
    ["an edit of the question text", payload(body, body.replace("Which", "What")), { answered: false, reason: "not an option ticked" }],
    ["a tick by a bot", payload(body, tickLine(body, 1), { sender: "ci[bot]", senderType: "Bot" }), { answered: false, reason: "edited by a bot" }],
    ["someone's own comment", payload(body, tickLine(body, 1), { author: "alice", authorType: "User" }), { answered: false, reason: "not crewbot's comment" }],
    ["no body change", payload(undefined, tickLine(body, 1)), { answered: false, reason: "the body did not change" }],
    ["the marker changed", payload(body, tickLine(body, 1).replace("job0000000000001", "job0000000000002")), { answered: false, reason: "not a question comment" }],
  ])("%s", (_name, p, expected) => {
    expect(detectTick(p, "crewbot")).toMatchObject(expected);
  });
});

describe("/answer", () => {
  it.each([
    ["/answer Postgres", { kind: "answer", text: "Postgres" }],
    ["/ANSWER  use both\nand more", { kind: "answer", text: "use both\nand more" }],
    ["/answer", { kind: "answer", text: "" }],
    ["> /answer quoted", null],
    ["/answering x", null],
  ])("%j", (text, expected) => {
    expect(parseCommand(text)).toEqual(expected);
  });
});
