/**
 * A parallel step on the transcript page: its agents run at once and their events interleave, but
 * each agent's entries show under its own heading, in item order — on the whole page and live.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { AgentRunResult } from "../../src/agent/types.js";
import { parseChainFile } from "../../src/chain/chains.js";
import { loadDefinitions } from "../../src/chain/definitions.js";
import { runChain } from "../../src/chain/run-chain.js";
import type { StoredEntry } from "../../src/transcripts/types.js";
import { Timeline, type JobHead } from "../../src/web/timeline.js";
import { chainOptions } from "../chain/chain-fixture.js";
import { signIn, startWebFixture, get, type WebFixture } from "./fixture.js";

let fx: WebFixture | undefined;
afterEach(async () => {
  await fx?.close();
  fx = undefined;
});

const CHAIN = `1. parallel:
   - scout: Look at the API.
   - scout: Look at the tests.
   - scout: Look at the docs.
2. scout: Sum up. {previous}
`;

/**
 * Runs the chain with agents that take turns strictly round-robin (each waits for the previous one's
 * tool call), so their events interleave: 1, 2, 3, 1, 2, 3 — the order the lanes must undo.
 */
async function runInterleaved(emit: (e: Parameters<NonNullable<Parameters<typeof runChain>[0]["emit"]>>[0]) => void): Promise<void> {
  const { agents } = await loadDefinitions();
  let turn = 0;
  const waiters: Array<() => void> = [];
  const myTurn = async (k: number) => {
    while (turn % 3 !== k) await new Promise<void>((resolve) => waiters.push(resolve));
  };
  const pass = () => {
    turn++;
    for (const w of waiters.splice(0)) w();
  };
  const result = await runChain({
    ...(await chainOptions({ chain: parseChainFile(CHAIN, "prompts/wide.md", "wide"), agents })),
    emit,
    runAgent: async (o): Promise<AgentRunResult> => {
      const base = { turns: 1, usage: { input: 100, output: 10, cacheRead: 0, cacheWrite: 0 }, costUsd: 0.001, estimate: false, filesRead: [], filesChanged: [] };
      const k = ["API", "tests", "docs"].findIndex((w) => o.prompt.includes(`Look at the ${w}`));
      if (o.prompt.includes("Sum up.")) return { ...base, stopReason: "done", text: "the summary" };
      const emitOne = o.emit!;
      emitOne({ type: "run_start", agent: o.agent, model: o.model, tools: ["read"] });
      for (let round = 0; round < 2; round++) {
        await myTurn(k);
        emitOne({ type: "text", agent: o.agent, text: `scout ${k + 1} thinks (round ${round + 1}). ` });
        emitOne({ type: "tool_start", agent: o.agent, id: `t${k + 1}-${round}`, name: "grep", args: `grep "item${k + 1}-round${round + 1}"` });
        emitOne({ type: "tool_end", agent: o.agent, id: `t${k + 1}-${round}`, name: "grep", ok: true, ms: 1, output: "found" });
        emitOne({ type: "usage", agent: o.agent, usage: base.usage, costUsd: base.costUsd, estimate: false });
        pass();
      }
      emitOne({ type: "run_end", agent: o.agent, stopReason: "done" });
      return { ...base, stopReason: "done", text: `REPORT-${k + 1}` };
    },
  });
  expect(result.error).toBeUndefined();
}

/** The parallel step's lanes as [agent heading, the grep args in it]. */
function lanesOf(html: string): Array<[string, string[]]> {
  return [...html.matchAll(/<section id="(s\d+-l\d+)" class="lane"[^>]*>([\s\S]*?)<\/section>/g)].map((m) => [
    /<h3[^>]*>([^<]*)/.exec(m[2]!)![1]!.replace(/\s*·?\s*$/, ""),
    [...m[2]!.matchAll(/<code>grep &quot;([^&]+)&quot;<\/code>/g)].map((g) => g[1]!),
  ]);
}

describe("a parallel step on the transcript page", () => {
  it("shows each agent's entries under its own heading, in item order, though they ran interleaved", async () => {
    fx = await startWebFixture();
    fx.jobs.add("job-wide", "acme/open", "succeeded");
    const order: string[] = [];
    await runInterleaved((e) => {
      if (e.type === "tool_start") order.push(e.args);
      fx!.recorder.append("job-wide", e);
    });
    await fx.recorder.end("job-wide", { kind: "done" }, "✅ Done");
    // They did interleave.
    expect(order.slice(0, 3)).toEqual(['grep "item1-round1"', 'grep "item2-round1"', 'grep "item3-round1"']);

    const cookie = await signIn(fx);
    const html = await (await get(`${fx.url}/jobs/job-wide`, cookie)).text();
    expect(lanesOf(html)).toEqual([
      ["1. scout", ["item1-round1", "item1-round2"]],
      ["2. scout", ["item2-round1", "item2-round2"]],
      ["3. scout", ["item3-round1", "item3-round2"]],
    ]);
    // Each lane has its task, its own text joined, its own figures; the step sums them.
    expect(html).toContain(`lane-task" style="display:block;font-weight:normal">Look at the tests.</span>`);
    expect(html).toContain("scout 2 thinks (round 1). </li>");
    const laneHeads = [...html.matchAll(/<h3 id="s\d+-l\d+-h"[^>]*>([\s\S]*?)<\/h3>/g)].map((m) => m[1]!);
    expect(laneHeads.every((h) => h.includes(`<span class="ok">done</span>`) && h.includes("220 tokens"))).toBe(true);
    const stepHead = /<h2 id="s\d+-h"[^>]*>Step 1 · scout \+ scout \+ scout([\s\S]*?)<\/h2>/.exec(html)![1]!;
    expect(stepHead).toContain("660 tokens");
    // The joined result stays the step's own, after the lanes; the next step follows.
    const step = html.indexOf("Step 1 · scout + scout + scout");
    expect(html.indexOf("REPORT-3", step)).toBeGreaterThan(html.lastIndexOf('class="lane"'));
    expect(html.indexOf("Step 2 · scout")).toBeGreaterThan(html.indexOf("REPORT-3"));
  });

  it("sends a live page each agent's entries into its own lane", async () => {
    const entries: StoredEntry[] = [];
    await runInterleaved((e) => entries.push({ ...e, at: 1_000 + entries.length, seq: entries.length + 1 } as StoredEntry));
    const head: JobHead = { id: "j", state: "running", kind: "plan", repo: "acme/open", number: 1, isPullRequest: false, sender: "octocat", request: "r", url: "https://github.com/acme/open/issues/1", createdAt: 0 };
    const timeline = new Timeline(head, "/jobs/j/artifacts/");
    const appendedTo = new Map<string, string>();
    for (const entry of entries) {
      for (const op of timeline.apply(entry)) {
        const grep = op.op === "append" ? /grep &quot;([^&]+)&quot;/.exec(op.html)?.[1] : undefined;
        if (op.op === "append" && grep) appendedTo.set(grep, op.parent);
      }
    }
    const stepDom = timeline.steps[0]!.dom;
    expect(Object.fromEntries(appendedTo)).toEqual({
      "item1-round1": `${stepDom}-l1-i`,
      "item1-round2": `${stepDom}-l1-i`,
      "item2-round1": `${stepDom}-l2-i`,
      "item2-round2": `${stepDom}-l2-i`,
      "item3-round1": `${stepDom}-l3-i`,
      "item3-round2": `${stepDom}-l3-i`,
    });
    // A step whose start did not list its items still gets a lane per item, in order.
    const old = new Timeline(head, "/jobs/j/artifacts/");
    old.apply({ type: "step_start", index: 0, agent: "scout + scout", at: 1, seq: 1 });
    old.apply({ type: "tool_start", agent: "scout", item: 2, id: "b", name: "grep", args: 'grep "second"', at: 2, seq: 2 });
    const ops = old.apply({ type: "tool_start", agent: "scout", item: 1, id: "a", name: "grep", args: 'grep "first"', at: 3, seq: 3 });
    expect(ops[0]).toMatchObject({ op: "replace", id: "s1" });
    expect(lanesOf(old.renderSteps())).toEqual([
      ["1. scout", ["first"]],
      ["2. scout", ["second"]],
    ]);
  });
});
