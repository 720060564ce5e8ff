/**
 * One agent run's state and its accounting: the conversation, the turns, the usage and cost, the
 * files read and changed, and how the run ends (the result and the `run_end` event, once).
 */
import type Anthropic from "@anthropic-ai/sdk";
import { toolSpec } from "../tools/schema.js";
import type { Submission, ToolContext } from "../tools/types.js";
import { defaultSummarizeArgs, type ArgsSummarizer } from "./args.js";
import type { BudgetTracker } from "./budget.js";
import { estimateTokens } from "./compaction.js";
import { ContextManager, SUMMARY_MAX_TOKENS } from "./context.js";
import type { EventSink } from "./events.js";
import { resumedMessages } from "./pause.js";
import { addUsage, contextWindowOf, emptyUsage, type Usage } from "./pricing.js";
import { RunSignal } from "./run-signal.js";
import { stopBeforeRequest, stopOfCause, type Stop } from "./stop.js";
import type { ToolRunOptions } from "./tool-calls.js";
import type { AgentPause, AgentRunResult, RunAgentOptions } from "./types.js";

export const DEFAULT_RESERVE_TOKENS = 16_384;

export class AgentRun {
  readonly opts: RunAgentOptions;
  readonly agent: string;
  readonly model: string;
  readonly budget: BudgetTracker;
  readonly summarizeArgs: ArgsSummarizer;
  /** Fires on an abort from outside or when the time budget runs out. */
  readonly runSignal: RunSignal;
  /** Tools get the run's signal, so an abort or the time budget kills their processes too. */
  readonly toolContext: ToolContext;
  /** Built once per run and never changed: byte-identical every turn, so their cache entries hold. */
  readonly system: Anthropic.TextBlockParam[];
  /** Set by openContext: a tool whose schema cannot be converted ends the run, not the process. */
  tools: Anthropic.Tool[] = [];
  messages: Anthropic.MessageParam[];
  turns: number;
  usage: Usage = emptyUsage();
  costUsd = 0;
  estimate = false;
  text = "";
  readonly filesRead: Set<string>;
  readonly filesChanged: Set<string>;
  /** Text of replies cut off by max_tokens, waiting for their continuation. */
  continued = "";
  continuations = 0;
  forceCompaction = false;
  /** Set when a result tool (submit_plan, submit_review) ended the run. */
  submission: Submission | undefined;
  /** Set when `ask_user` paused the run. */
  paused: AgentPause | undefined;
  /** The text of the reply streaming now, kept when the run fails mid-reply. */
  partialText: () => string = () => "";
  private ended = false;

  constructor(opts: RunAgentOptions) {
    this.opts = opts;
    this.agent = opts.agent;
    this.model = opts.model;
    this.budget = opts.budget;
    this.summarizeArgs = opts.summarizeArgs ?? defaultSummarizeArgs;
    this.runSignal = new RunSignal(opts.signal, opts.budget.remainingMs());
    this.toolContext = { ...opts.toolContext, signal: this.runSignal.signal };
    this.system = opts.system ? [{ type: "text", text: opts.system }] : [];
    this.messages = opts.resume
      ? resumedMessages(opts.resume)
      : [{ role: "user", content: [{ type: "text", text: opts.prompt || "(no task given)" }] }];
    this.turns = opts.resume?.pause.turns ?? 0;
    this.filesRead = new Set<string>(opts.resume?.pause.filesRead);
    this.filesChanged = new Set<string>(opts.resume?.pause.filesChanged);
  }

  /**
   * Nothing after run_end (a tool that ignored the abort may finish later), and a failing
   * reporter must not take the run down with it.
   */
  readonly emit: EventSink = (event) => {
    if (this.ended || !this.opts.emit) return;
    try {
      this.opts.emit(event);
    } catch {
      // The event is lost; the run goes on.
    }
  };

  /** Prices and records one reply's usage (the job's budget, the run's totals, an event); returns its cost. */
  account(reply: Usage): number {
    const cost = this.budget.addUsage(this.model, reply);
    this.usage = addUsage(this.usage, reply);
    this.costUsd += cost.usd;
    this.estimate ||= cost.estimate;
    // Per reply, not cumulative: a reporter sums them across agents for job totals.
    this.emit({ type: "usage", agent: this.agent, usage: reply, costUsd: cost.usd, estimate: cost.estimate });
    return cost.usd;
  }

  files(): { read: string[]; changed: string[] } {
    return { read: [...this.filesRead], changed: [...this.filesChanged] };
  }

  toolOptions(): ToolRunOptions {
    return { agent: this.agent, tools: this.opts.tools, ctx: this.toolContext, emit: this.emit, summarizeArgs: this.summarizeArgs };
  }

  /** Converts the tools' schemas and opens the context manager, which counts them in every request. */
  openContext(): ContextManager {
    const { opts, budget } = this;
    this.tools = opts.tools.map((tool) => toolSpec(tool) as Anthropic.Tool);
    return new ContextManager({
      agent: this.agent,
      model: this.model,
      client: opts.client,
      prompt: opts.prompt,
      window: opts.contextWindow ?? contextWindowOf(this.model),
      reserveTokens: opts.reserveTokens ?? DEFAULT_RESERVE_TOKENS,
      emit: this.emit,
      summarizeArgs: this.summarizeArgs,
      account: (reply) => this.account(reply),
      overheadTokens: estimateTokens(this.system) + estimateTokens(this.tools),
      summaryMaxTokens: () => Math.max(1, Math.min(SUMMARY_MAX_TOKENS, opts.maxTokensPerReply ?? SUMMARY_MAX_TOKENS, budget.remainingOutputTokens())),
      retry: opts.retry,
    });
  }

  /** Awaits the job's own work between turns; its failure is logged, the run goes on. */
  async betweenTurns(): Promise<void> {
    if (!this.opts.betweenTurns) return;
    try {
      await this.opts.betweenTurns();
    } catch (err) {
      this.emit({ type: "log", agent: this.agent, level: "warn", message: `between turns: ${err instanceof Error ? err.message : String(err)}` });
    }
  }

  /** The result to end with before a request, if the run may not make one. */
  stopBeforeRequest(): AgentRunResult | undefined {
    const stop = stopBeforeRequest({
      agent: this.agent,
      ...(this.runSignal.aborted ? { stopped: this.runSignal.cause ?? "aborted" } : {}),
      exceeded: this.budget.exceeded(),
      limits: this.budget.limits,
      turns: this.turns,
      ...(this.opts.maxTurns !== undefined ? { maxTurns: this.opts.maxTurns } : {}),
    });
    return stop && this.finish(stop);
  }

  /** The end of a run its signal stopped. */
  stopped(): AgentRunResult {
    return this.finish(stopOfCause(this.runSignal.cause ?? "aborted", this.budget.limits));
  }

  finish(stop: Stop): AgentRunResult {
    this.runSignal.dispose();
    this.emit({ type: "run_end", agent: this.agent, ...stop });
    this.ended = true;
    return {
      ...stop,
      text: this.text,
      turns: this.turns,
      usage: this.usage,
      costUsd: this.costUsd,
      estimate: this.estimate,
      filesRead: [...this.filesRead],
      filesChanged: [...this.filesChanged],
      ...(this.submission ? { submission: this.submission } : {}),
      ...(this.paused ? { paused: this.paused } : {}),
    };
  }
}
