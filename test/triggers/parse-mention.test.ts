/**
 * A mention of the app at the start of a comment's first line is the command it names (DESIGN.md
 * §1); anything else that looks like a mention is not ours.
 */
import { describe, expect, it } from "vitest";
import { decide, preflight, type CommentPayload } from "../../src/triggers/comment-command.js";
import { parseCommand } from "../../src/triggers/parse-command.js";
import { mayMention, mentionAsCommand } from "../../src/triggers/parse-mention.js";
import { threadReplyPreflight, type ThreadReplyPayload } from "../../src/triggers/on-thread-reply.js";
import { issueCommentCreated } from "../fixtures/payloads.js";

const SLUG = "crewbot";

describe("a mention at the start of the first line", () => {
  it.each([
    // The command it names, with its request; the word may carry its slash.
    ["@crewbot plan add caching", { kind: "plan", request: "add caching", mention: true }],
    ["@crewbot implement\nuse redis\nand keep it small", { kind: "implement", request: "use redis\nand keep it small", mention: true }],
    ["@crewbot review full", { kind: "review", request: "full", mention: true }],
    ["@crewbot /plan it", { kind: "plan", request: "it", mention: true }],
    ["@crewbot ask why is this slow?", { kind: "ask", request: "why is this slow?", mention: true }],
    // Any other text is /ask <text>, later lines included.
    ["@crewbot why does the cache miss?", { kind: "ask", request: "why does the cache miss?", mention: true }],
    ["@crewbot where is the retry loop?\nSee the logs below.", { kind: "ask", request: "where is the retry loop?\nSee the logs below.", mention: true }],
    ["@crewbot planning ahead, what breaks?", { kind: "ask", request: "planning ahead, what breaks?", mention: true }],
    ["@crewbot /deploy now", { kind: "ask", request: "/deploy now", mention: true }],
    // crewbot's own words.
    ["@crewbot help", { kind: "help", mention: true }],
    ["@crewbot", { kind: "help", mention: true }],
    ["@crewbot cancel", { kind: "cancel", mention: true }],
    ["@crewbot learn", { kind: "learn", mention: true }],
    ["@crewbot learnings", { kind: "learnings", mention: true }],
    ["@crewbot answer use the second option", { kind: "answer", text: "use the second option", mention: true }],
    // Casing: GitHub logins are case-insensitive, and so are command words.
    ["@CrewBot PLAN add caching", { kind: "plan", request: "add caching", mention: true }],
    ["@CREWBOT what is this?", { kind: "ask", request: "what is this?", mention: true }],
    // The bot user's own login, and a comma or colon after the mention.
    ["@crewbot[bot] review", { kind: "review", request: "", mention: true }],
    ["@crewbot, what does `run` return?", { kind: "ask", request: "what does `run` return?", mention: true }],
    ["@crewbot: plan it", { kind: "plan", request: "it", mention: true }],
    // Leading blank lines and spaces before the first line.
    ["\n\n  @crewbot what now?", { kind: "ask", request: "what now?", mention: true }],
  ])("%j → %j", (body, expected) => {
    expect(parseCommand(body, SLUG)).toEqual(expected);
  });

  it.each([
    ["inside text", "thanks @crewbot, what now?"],
    ["on a later line", "Thanks!\n@crewbot what now?"],
    ["after a quote", "> @crewbot plan it\nquoted"],
    ["in a fenced block", "```\n@crewbot plan it\n```"],
    ["in a tilde fence", "~~~\n@crewbot plan it\n~~~"],
    ["in indented code", "    @crewbot plan it"],
    ["in inline code", "`@crewbot plan it`"],
    ["another bot", "@dependabot rebase"],
    ["another bot, named like a command", "@renovate plan"],
    ["a different app whose slug starts like ours", "@crewbot-staging plan it"],
    ["a longer login", "@crewbots what now?"],
    ["a login ending in ours", "@mycrewbot what now?"],
    ["an email address", "crewbot@example.com what now?"],
    ["a mention glued to punctuation", "@crewbot!"],
  ])("%s is not one", (_what, body) => {
    expect(parseCommand(body, SLUG)).toBeNull();
  });

  it("is a mention only when the slug is known: without it, parsing is the slash commands' alone", () => {
    expect(parseCommand("@crewbot plan it")).toBeNull();
    expect(parseCommand("/plan it", SLUG)).toEqual({ kind: "plan", request: "it" });
  });

  it("matches the app's own slug, whatever it is, never crewbot's default name", () => {
    expect(parseCommand("@acme-helper plan it", "acme-helper")).toEqual({ kind: "plan", request: "it", mention: true });
    expect(parseCommand("@crewbot plan it", "acme-helper")).toBeNull();
    // A slug given with its bot suffix (as some callers hold it) is the same app; a slug's dots are not patterns.
    expect(mentionAsCommand("@acme-helper plan", "acme-helper[bot]")).toBe("/plan");
    expect(mentionAsCommand("@axb plan", "a.b")).toBeUndefined();
  });

  it("a comment only waits for the slug when it may start with a mention", () => {
    expect(mayMention("  @crewbot hi")).toBe(true);
    expect(mayMention("\n@x")).toBe(true);
    expect(mayMention("/plan")).toBe(false);
    expect(mayMention("hi @crewbot")).toBe(false);
  });
});

describe("a mention goes through the commands' gate", () => {
  const pre = (body: string, login?: string) => preflight(issueCommentCreated(body, login ? { login } : {}) as unknown as CommentPayload, SLUG);

  it("is refused to someone without write access, like a slash command", () => {
    const p = pre("@crewbot what does this do?");
    expect(p).toMatchObject({ go: true, command: { kind: "ask", mention: true } });
    if (!p.go) throw new Error("unreachable");
    const payload = issueCommentCreated("@crewbot what does this do?") as unknown as CommentPayload;
    expect(decide(payload, p, "read", "d1")).toEqual({ action: "not-allowed", login: p.login });
    expect(decide(payload, p, "write", "d1")).toMatchObject({ action: "enqueue", job: { kind: "ask", trigger: { request: "what does this do?" } } });
  });

  it("a bot's mention is never one: no bot-to-bot chains", () => {
    const payload = issueCommentCreated("@crewbot plan it") as unknown as CommentPayload;
    payload.comment.user = { login: "other-app[bot]", type: "Bot" };
    expect(preflight(payload, SLUG)).toEqual({ go: false, reason: "comment by a bot" });
  });

  it("`/ask` without a question is answered, not run", () => {
    const payload = issueCommentCreated("/ask") as unknown as CommentPayload;
    const p = preflight(payload, SLUG);
    if (!p.go) throw new Error("expected a command");
    expect(decide(payload, p, "admin", "d1")).toMatchObject({ action: "reply", reason: "empty question" });
  });

  it("in a reply to crewbot's review thread, a mention is a command, not a reply to answer there", () => {
    const payload = { ...(issueCommentCreated("@crewbot why?") as object), pull_request: { number: 1, title: "t", user: { login: "a" } } } as unknown as ThreadReplyPayload;
    payload.comment.in_reply_to_id = 7;
    expect(threadReplyPreflight(payload, SLUG)).toEqual({ go: false, reason: "a command (handled as one)" });
    expect(threadReplyPreflight(payload)).toMatchObject({ go: true, topId: 7 });
  });
});
