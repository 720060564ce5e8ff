/** Pausing for an `ask_user` question, and going on from the pause with the answer. */
import type Anthropic from "@anthropic-ai/sdk";
import type { ToolCallResult } from "./tool-calls.js";
import type { AgentPause, AgentResume } from "./types.js";

type MessageParam = Anthropic.MessageParam;

/** One question at a time: a second `ask_user` in the same reply is answered with this. */
export const ONE_QUESTION_AT_A_TIME = "Not asked: one question at a time. Ask it again after the first is answered, if it still matters.";

/** The pause at a reply whose `asked` call is an `ask_user` question: the conversation up to that reply. */
export function pauseAt(
  asked: ToolCallResult,
  results: ToolCallResult[],
  messages: MessageParam[],
  so: { turns: number; filesRead: string[]; filesChanged: string[] },
): AgentPause {
  const blocks = results.map((r): Anthropic.ToolResultBlockParam =>
    r.question && r !== asked ? { type: "tool_result", tool_use_id: r.block.tool_use_id, content: ONE_QUESTION_AT_A_TIME, is_error: true } : r.block,
  );
  return { question: asked.question!, toolUseId: asked.block.tool_use_id, messages: [...messages], results: blocks, ...so };
}

/** The saved conversation, then the reply's results with the answer as the asking call's result. */
export function resumedMessages({ pause, answer }: AgentResume): MessageParam[] {
  const results = pause.results.map((block): Anthropic.ToolResultBlockParam =>
    block.tool_use_id === pause.toolUseId ? { type: "tool_result", tool_use_id: block.tool_use_id, content: answer } : block,
  );
  return [...pause.messages, { role: "user", content: results }];
}
