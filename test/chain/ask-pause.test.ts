import { describe, expect, it } from "vitest";
import type { AgentPause, AgentRunResult, RunAgentOptions } from "../../src/agent/types.js";
import { loadDefinitions } from "../../src/chain/definitions.js";
import { chainMode, runChain, type RunChainOptions } from "../../src/chain/run-chain.js";
import { agentResult, chainOptions } from "./chain-fixture.js";

const result = agentResult;

const agentPause: AgentPause = {
  question: { question: "Which?", options: ["a", "b"] },
  toolUseId: "toolu_1",
  messages: [{ role: "user", content: "task" }, { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "ask_user", input: {} }] }],
  results: [{ type: "tool_result", tool_use_id: "toolu_1", content: "posted" }],
  turns: 1,
  filesRead: [],
  filesChanged: [],
};

async function run(chainName: string, replies: Array<(o: RunAgentOptions) => AgentRunResult>, extra: Partial<RunChainOptions> = {}) {
  const { agents, chains } = await loadDefinitions();
  const chain = chains.get(chainName)!;
  const calls: RunAgentOptions[] = [];
  const base = await chainOptions({ chain, agents, task: "the task", mode: chainMode(chain, agents), sandbox: { available: true } });
  const out = await runChain({
    ...base,
    runAgent: async (o) => {
      calls.push(o);
      return replies[calls.length - 1]!(o);
    },
    ...extra,
  });
  return { out, calls };
}

const offered = (o: RunAgentOptions) => o.tools.some((t) => t.name === "ask_user");

describe("runChain: a step that asks the requester", () => {
  it("offers ask_user only to the read-only steps before the worker, and only when asked to", async () => {
    const withAsk = await run("implement", [() => result("s"), () => result("## Plan\n1. x"), () => result("[DONE:1]")], { questions: { asked: 1 } });
    expect(withAsk.calls.map(offered)).toEqual([true, true, false]);
    expect(withAsk.calls[0]!.toolContext.questionsAsked).toBe(1);
    const without = await run("plan", [() => result("s"), () => result("## Plan\n1. x")]);
    expect(without.calls.map(offered)).toEqual([false, false]);
  });

  it("stops the chain with a pause naming the step and the outputs so far, and resumes at that step", async () => {
    const first = await run("plan", [() => result("scouted"), () => result("", { stopReason: "waiting", paused: agentPause })], { questions: { asked: 0 } });
    expect(first.out).toMatchObject({ ok: false, stopReason: "waiting", paused: { index: 1, agent: "planner", previous: "scouted", outputs: { scout: "scouted" } } });
    const pause = JSON.parse(JSON.stringify(first.out.paused));
    const second = await run("plan", [() => result("## Plan\n1. b")], { questions: { asked: 1 }, resume: { pause, answer: "b" } });
    expect(second.out).toMatchObject({ ok: true, output: "## Plan\n1. b" });
    expect(second.calls.map((c) => c.agent)).toEqual(["planner"]); // the scout is not run again
    expect(second.calls[0]!.resume).toEqual({ pause: agentPause, answer: "b" });
  });
});
