/** Shared set-up of the loop tests: a fake API, a budget, small in-test tools, recorded events. */
import os from "node:os";
import { z } from "zod";
import { BudgetTracker, DEFAULT_BUDGETS, type Budgets } from "../../src/agent/budget.js";
import type { AgentEvent } from "../../src/agent/events.js";
import { runAgent } from "../../src/agent/loop.js";
import type { AgentRunResult, RunAgentOptions } from "../../src/agent/types.js";
import type { Tool, ToolContext, ToolResult } from "../../src/tools/types.js";
import type { ToolName } from "../../src/tools/registry.js";
import type { ModelRetryPolicy } from "../../src/agent/retry.js";
import { fakeClient, startFakeAnthropic, type FakeOptions, type FakeServer, type Script } from "../helpers/fake-anthropic.js";

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function toolContext(): ToolContext {
  const tmp = os.tmpdir();
  return {
    root: tmp,
    mode: "write",
    artifactsDir: tmp,
    readRoots: [],
    scratchDir: tmp,
    signal: new AbortController().signal, // replaced by the loop with the run's signal
    sandbox: { available: false, reason: "tests" },
    network: false,
    envAllowlist: {},
  };
}

/** A tool with a `{ path }` input; `run` decides the result. */
export function pathTool(
  name: ToolName,
  readOnly: boolean,
  run: (input: { path: string }, ctx: ToolContext) => Promise<ToolResult> | ToolResult,
): Tool<{ path: string }> {
  return {
    name,
    description: `${name} a file`,
    readOnly,
    schema: z.object({ path: z.string() }).strict(),
    run: async (input, ctx) => run(input, ctx),
  };
}

/** `read` returning `content` (or a default), reporting the file as read. */
export const readTool = (content: (path: string) => string = (p) => `contents of ${p}`) =>
  pathTool("read", true, ({ path }) => ({ output: content(path), isError: false, filesRead: [path] }));

export const toolUse = (name: string, input: unknown, id?: string) => ({ type: "tool_use" as const, name, input, ...(id ? { id } : {}) });

/**
 * A retry clock that never really waits: each backoff moves `now` forward and is recorded, so a
 * test sees the waits the policy chose (retry-after, backoff) without spending them.
 */
export function fakeRetryClock(start = 1_000_000) {
  let now = start;
  const waits: number[] = [];
  const policy: Partial<ModelRetryPolicy> = {
    now: () => now,
    random: () => 0.5,
    sleep: async (ms, signal) => {
      if (signal.aborted) throw signal.reason;
      waits.push(ms);
      now += ms;
      await new Promise((resolve) => setImmediate(resolve));
      if (signal.aborted) throw signal.reason;
    },
  };
  return { policy, waits, elapsed: () => now - start };
}

export interface Harness {
  fake: FakeServer;
  /** The waits the run's retries chose (fake clock, nothing slept). */
  retryClock: ReturnType<typeof fakeRetryClock>;
  budget: BudgetTracker;
  events: AgentEvent[];
  run(overrides?: Partial<RunAgentOptions>): Promise<AgentRunResult>;
}

let current: FakeServer[] = [];

export async function harness(
  script: Script,
  options: { budgets?: Partial<Budgets>; tools?: Tool[]; retry?: Partial<ModelRetryPolicy>; fake?: FakeOptions } = {},
): Promise<Harness> {
  const fake = await startFakeAnthropic(script, options.fake);
  current.push(fake);
  const budget = new BudgetTracker({ ...DEFAULT_BUDGETS, ...options.budgets });
  const events: AgentEvent[] = [];
  const retryClock = fakeRetryClock();
  const client = fakeClient(fake.url, { retry: { ...retryClock.policy, ...options.retry } });
  return {
    fake,
    retryClock,
    budget,
    events,
    run: (overrides = {}) =>
      runAgent({
        agent: "tester",
        model: "claude-haiku-4-5", // not deprecated in this SDK (no warning noise); priced 1/5 per MTok
        system: "You are a test agent.",
        prompt: "Do the task.",
        tools: options.tools ?? [],
        toolContext: toolContext(),
        budget,
        client,
        emit: (event) => events.push(event),
        ...overrides,
      }),
  };
}

/** afterEach: closes the fakes; throws (failing the test) if one ran out of script or refused a request. */
export async function closeAll(): Promise<void> {
  const servers = current;
  current = [];
  for (const server of servers) await server.close();
}

/** Tool results of a recorded request's last message, by tool_use_id. */
export function lastToolResults(body: Record<string, any>) {
  const last = body.messages[body.messages.length - 1] as { content: unknown };
  return (last.content as Array<{ type: string; tool_use_id: string; content: string; is_error?: boolean }>).filter(
    (b) => b.type === "tool_result",
  );
}
