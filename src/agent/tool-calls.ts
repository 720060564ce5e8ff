/**
 * Runs the tool_use blocks of one model reply and turns each into a tool_result. Nothing a
 * tool or the model does here can crash the run: unknown tools, invalid arguments and thrown
 * errors all become `is_error` results, which the model reads and can correct.
 */
import type Anthropic from "@anthropic-ai/sdk";
import { validateInput } from "../tools/schema.js";
import { ToolError, type AgentQuestion, type Submission, type Tool, type ToolContext, type ToolResult } from "../tools/types.js";
import { safeSummary, type ArgsSummarizer } from "./args.js";
import type { EventSink } from "./events.js";

export interface ToolCall {
  id: string;
  name: string;
  input: unknown;
}

export interface ToolCallResult {
  block: Anthropic.ToolResultBlockParam;
  filesRead: string[];
  filesChanged: string[];
  /** A result tool's hand-over: the agent ends with it. */
  final?: Submission;
  /** `ask_user`'s question: the agent pauses until it is answered. */
  question?: AgentQuestion;
}

export interface ToolRunOptions {
  agent: string;
  tools: Tool[];
  /** Carries the run's combined abort signal, so an abort kills running tool processes too. */
  ctx: ToolContext;
  emit: EventSink;
  summarizeArgs: ArgsSummarizer;
}

/** How much of a tool's output an event carries (the model gets the whole, already capped, output). */
export const EVENT_OUTPUT_CHARS = 1000;

function forEvent(output: string): string {
  return output.length > EVENT_OUTPUT_CHARS ? `${output.slice(0, EVENT_OUTPUT_CHARS)}… (${output.length} chars)` : output;
}

function errorMessage(err: unknown): string {
  if (err instanceof ToolError) return err.message;
  if (err instanceof Error) return `${err.name}: ${err.message}`;
  return String(err);
}

/**
 * Files a call touched. Tools report them (ToolResult.filesRead/filesChanged); for the file
 * tools of DESIGN §4 we also infer them from the arguments when a tool reports nothing, so the
 * compaction summary's file list does not depend on every tool remembering to fill them in.
 */
function filesOf(call: ToolCall, result: ToolResult): { filesRead: string[]; filesChanged: string[] } {
  const reported = result.filesRead !== undefined || result.filesChanged !== undefined;
  if (reported || result.isError) return { filesRead: result.filesRead ?? [], filesChanged: result.filesChanged ?? [] };
  const path = (call.input as { path?: unknown } | null)?.path;
  if (typeof path !== "string") return { filesRead: [], filesChanged: [] };
  if (call.name === "read") return { filesRead: [path], filesChanged: [] };
  if (call.name === "edit" || call.name === "write") return { filesRead: [], filesChanged: [path] };
  return { filesRead: [], filesChanged: [] };
}

async function runOne(call: ToolCall, tool: Tool | undefined, opts: ToolRunOptions): Promise<ToolCallResult> {
  const started = Date.now();
  opts.emit({
    type: "tool_start",
    agent: opts.agent,
    id: call.id,
    name: call.name,
    args: safeSummary(opts.summarizeArgs, call.name, call.input),
  });

  let result: ToolResult;
  if (!tool) {
    const known = opts.tools.map((t) => t.name).join(", ") || "none";
    result = { output: `Unknown tool "${call.name}". Available tools: ${known}.`, isError: true };
  } else if (opts.ctx.signal.aborted) {
    result = { output: "Not run: the run was stopped.", isError: true };
  } else {
    const valid = validateInput(tool, call.input);
    if (!valid.ok) {
      result = { output: valid.message, isError: true };
    } else {
      try {
        result = await tool.run(valid.value, opts.ctx);
      } catch (err) {
        result = { output: errorMessage(err), isError: true };
        if (!(err instanceof ToolError)) {
          opts.emit({ type: "log", agent: opts.agent, level: "warn", message: `tool ${call.name} threw: ${errorMessage(err)}` });
        }
      }
    }
  }

  // The API rejects empty text; an empty success still tells the model something.
  const output = result.output === "" ? (result.isError ? "Error (no message)" : "(no output)") : result.output;
  opts.emit({
    type: "tool_end",
    agent: opts.agent,
    id: call.id,
    name: call.name,
    ok: !result.isError,
    ms: Date.now() - started,
    output: forEvent(output),
  });
  const block: Anthropic.ToolResultBlockParam = { type: "tool_result", tool_use_id: call.id, content: output };
  if (result.isError) block.is_error = true;
  const question = result.question && !result.isError ? { question: result.question } : {};
  return { block, ...filesOf(call, result), ...(result.final && !result.isError ? { final: result.final } : {}), ...question };
}

/**
 * Runs the calls of one reply; results come back in the calls' order. Read-only tools cannot
 * interfere with each other, so a batch of only read-only calls runs concurrently; as soon as
 * one call may write, the batch runs in the model's order, as the model expects.
 */
export async function runToolCalls(calls: ToolCall[], opts: ToolRunOptions): Promise<ToolCallResult[]> {
  const byName = new Map(opts.tools.map((tool) => [tool.name as string, tool]));
  const resolved = calls.map((call) => ({ call, tool: byName.get(call.name) }));
  // Unknown tools never run, so they do not force the batch into order.
  const concurrent = resolved.every(({ tool }) => !tool || tool.readOnly);
  if (concurrent) return Promise.all(resolved.map(({ call, tool }) => runOne(call, tool, opts)));
  const results: ToolCallResult[] = [];
  for (const { call, tool } of resolved) results.push(await runOne(call, tool, opts));
  return results;
}

/** The result for a call that is not run (e.g. its input was cut off by max_tokens); events as for any call. */
export function refusedCall(call: ToolCall, reason: string, opts: ToolRunOptions): ToolCallResult {
  const args = safeSummary(opts.summarizeArgs, call.name, call.input);
  opts.emit({ type: "tool_start", agent: opts.agent, id: call.id, name: call.name, args });
  opts.emit({ type: "tool_end", agent: opts.agent, id: call.id, name: call.name, ok: false, ms: 0, output: reason });
  return { block: { type: "tool_result", tool_use_id: call.id, content: reason, is_error: true }, filesRead: [], filesChanged: [] };
}

const truncatedCallMessage = (maxTokens: number) =>
  `Not run: your reply reached the max_tokens limit (${maxTokens}) before this call's input was complete. ` +
  "Send the call again; if its input is large (a whole file), split the work into smaller calls.";

/**
 * Runs the tool calls of one reply, results in the calls' order. When the reply was cut off, a
 * call in its last block has incomplete input: it is not run but answered so. Undefined when
 * `stopped` settles first (a tool that ignores the abort is left behind).
 */
export async function runReplyCalls(
  message: Anthropic.Message,
  reply: { cutOff: boolean; maxTokens: number },
  opts: ToolRunOptions,
  stopped: Promise<unknown>,
): Promise<ToolCallResult[] | undefined> {
  const calls: ToolCall[] = message.content.flatMap((b) => (b.type === "tool_use" ? [{ id: b.id, name: b.name, input: b.input }] : []));
  // With max_tokens, the last block was cut mid-way: if it is a tool call its input is incomplete.
  const lastBlock = message.content[message.content.length - 1];
  const truncatedId = reply.cutOff && lastBlock?.type === "tool_use" ? lastBlock.id : undefined;
  const work = runToolCalls(calls.filter((c) => c.id !== truncatedId), opts);
  work.catch(() => {}); // may settle after we stopped racing it
  const ran = await Promise.race([work, stopped.then(() => undefined)]);
  if (!ran) return undefined;
  return calls.map((c) => (c.id === truncatedId ? refusedCall(c, truncatedCallMessage(reply.maxTokens), opts) : ran.shift()!));
}
