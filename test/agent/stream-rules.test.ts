import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { parseRule, RuleBook } from "../../src/chain/rules.js";
import type { Tool } from "../../src/tools/types.js";
import { closeAll, harness, readTool, toolUse } from "./harness.js";

afterEach(closeAll);

const rule = (front: string) => parseRule(`---\n${front}\n---\nUse the logger from src/log.ts instead.\n`, ".github/crewbot/rules/no-console.md");
const NO_CONSOLE = "name: no-console\ntrigger: 'console\\.log'\nagents: [worker]";
const INTERRUPT = '<system-interrupt reason="rule" rule="no-console">\nUse the logger from src/log.ts instead.\n</system-interrupt>';
const usage = { input_tokens: 100, output_tokens: 40 };

/** A `write` that records what it was asked to write. */
function writeTool(written: Array<{ path: string; content: string }>): Tool<{ path: string; content: string }> {
  return {
    name: "write",
    description: "write a file",
    readOnly: false,
    schema: z.object({ path: z.string(), content: z.string() }).strict(),
    run: async (input) => {
      written.push(input);
      return { output: `wrote ${input.path}`, isError: false, filesChanged: [input.path] };
    },
  };
}

const lastText = (body: Record<string, any>) => JSON.stringify(body.messages.at(-1));

describe("stream rules in the agent loop", () => {
  it("stops a worker whose streamed write input matches, drops the reply, sends the rule, and with once lets a second match through", async () => {
    const written: Array<{ path: string; content: string }> = [];
    const h = await harness(
      [
        { content: [{ type: "text", text: "Adding a debug line." }, toolUse("write", { path: "src/a.ts", content: "console.log('debug');\n" })], usage },
        { content: [toolUse("write", { path: "src/a.ts", content: "log.info('debug');\n" })], usage },
        { content: [toolUse("write", { path: "src/b.ts", content: "console.log('kept');\n" })], usage },
        { text: "Done.", usage },
      ],
      { tools: [writeTool(written)] },
    );
    const result = await h.run({ agent: "worker", rules: new RuleBook([rule(NO_CONSOLE)]) });

    expect(result).toMatchObject({ stopReason: "done", text: "Done.", turns: 4 });
    expect(written).toEqual([
      { path: "src/a.ts", content: "log.info('debug');\n" },
      { path: "src/b.ts", content: "console.log('kept');\n" },
    ]);
    const second = h.fake.requests[1]!.body;
    // Nothing of the dropped reply: the conversation is the task, then the interrupt in the same user turn.
    expect(second.messages.map((m: { role: string }) => m.role)).toEqual(["user"]);
    expect(second.messages[0].content.at(-1)).toMatchObject({ type: "text", text: INTERRUPT });
    expect(JSON.stringify(second.messages)).not.toContain("Adding a debug line");
    expect(lastText(h.fake.requests[2]!.body)).not.toContain("system-interrupt");
    const interrupts = h.events.filter((e) => e.type === "rule_interrupt");
    expect(interrupts).toEqual([{ type: "rule_interrupt", agent: "worker", turn: 1, rule: "no-console", droppedTokens: expect.any(Number), costUsd: expect.any(Number) }]);
    expect((interrupts[0] as { droppedTokens: number }).droppedTokens).toBeGreaterThan(1);
    // The dropped request's prompt counts like any other: four requests of 100 input tokens.
    expect(result.usage.input).toBe(400);
    expect(h.budget.turns).toBe(4);
    expect(h.events.filter((e) => e.type === "tool_start").map((e) => (e as { args: string }).args)).toHaveLength(2);
  });

  it("a rule for another agent does not fire", async () => {
    const written: Array<{ path: string; content: string }> = [];
    const h = await harness([{ content: [toolUse("write", { path: "a.ts", content: "console.log(1)" })] }, { text: "ok" }], { tools: [writeTool(written)] });
    const result = await h.run({ agent: "worker", rules: new RuleBook([rule("name: no-console\ntrigger: 'console\\.log'\nagents: [reviewer]")]) });
    expect(result.stopReason).toBe("done");
    expect(written).toHaveLength(1);
    expect(h.fake.requests).toHaveLength(2);
    expect(h.events.some((e) => e.type === "rule_interrupt")).toBe(false);
  });

  it("after-gap fires again only after gap completed turns, in text as well as tool input", async () => {
    const say = (text: string) => ({ content: [{ type: "text" as const, text }, toolUse("read", { path: "x" })] });
    const h = await harness(
      [say("console.log one"), say("console.log two"), say("console.log three"), say("console.log four"), say("clean"), { text: "end" }],
      { tools: [readTool()] },
    );
    const result = await h.run({ agent: "scout", rules: new RuleBook([rule("name: no-console\ntrigger: 'console\\.log'\nrepeat: after-gap\ngap: 2")]) });
    expect(result.stopReason).toBe("done");
    // Fired on the first reply; the next two complete (the gap); the fourth is stopped again.
    expect(h.events.filter((e) => e.type === "rule_interrupt").map((e) => (e as { turn: number }).turn)).toEqual([1, 4]);
    const kept = h.fake.requests.at(-1)!.body.messages.filter((m: { role: string }) => m.role === "assistant").map((m: any) => m.content[0].text);
    expect(kept).toEqual(["console.log two", "console.log three", "clean"]);
    expect(lastText(h.fake.requests[1]!.body)).toContain("system-interrupt");
    expect(lastText(h.fake.requests[4]!.body)).toContain("system-interrupt");
  });

  it("a retried stream starts the window over and fires nothing by itself", async () => {
    const h = await harness(
      [
        { text: "console.", streamError: { type: "overloaded_error", message: "Overloaded", afterEvents: 5 } },
        { text: "log is what I would write" },
      ],
    );
    const result = await h.run({ agent: "worker", rules: new RuleBook([rule(NO_CONSOLE)]) });
    expect(result).toMatchObject({ stopReason: "done", text: "log is what I would write" });
    expect(h.events.some((e) => e.type === "rule_interrupt")).toBe(false);
    expect(h.events.some((e) => e.type === "model_wait")).toBe(true);
    // The dropped attempt streamed all of "console." before it failed: only the reset keeps it from joining "log".
    expect(h.events.filter((e) => e.type === "text").map((e) => (e as { text: string }).text).join("")).toBe("console.log is what I would write");
  });
});

describe("how an interrupt shows", () => {
  const event = { type: "rule_interrupt" as const, agent: "worker", turn: 3, rule: "no-console", droppedTokens: 1200, costUsd: 0.01 };

  it("the web timeline notes the rule, the dropped text and its cost", async () => {
    const { Timeline } = await import("../../src/web/timeline.js");
    const timeline = new Timeline(
      { id: "job-1", state: "running", kind: "implement", repo: "o/r", number: 1, isPullRequest: false, sender: "octocat", request: "/implement", url: "https://github.com/o/r/issues/1", createdAt: 0 },
      "/jobs/job-1/artifacts/",
    );
    timeline.apply({ type: "run_start", agent: "worker", model: "m", tools: [], at: 1, seq: 1 });
    const ops = JSON.stringify(timeline.apply({ ...event, at: 2, seq: 2 } as Parameters<typeof timeline.apply>[0]));
    expect(ops).toContain("rule no-console stopped the reply of turn 3: the text above was dropped (~1.2k output tokens");
  });

  it("the CLI prints a line for it", async () => {
    const { ProgressFormatter } = await import("../../src/cli/format.js");
    const line = new ProgressFormatter(() => undefined as never).format(event);
    expect(line).toContain("[worker] turn 3 · rule no-console stopped the reply");
  });
});
