/**
 * The request checks of the fake Anthropic server: the rules the real Messages API enforces
 * with a 400 `invalid_request_error`, so a test that passes against the fake cannot send a
 * conversation the real API would refuse. One rule is stricter than the API: consecutive
 * turns of the same role are refused instead of merged, because crewbot always alternates
 * and a merge would hide a bug in the loop.
 */

type Block = { type?: string; [key: string]: unknown };
type Msg = { role?: string; content?: unknown };

const MAX_CACHE_BREAKPOINTS = 4;

function blocksOf(content: unknown): Block[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  return Array.isArray(content) ? (content as Block[]) : [];
}

/** Every object carrying `cache_control` in system, tools and messages (tool_result contents too). */
export function countCacheBreakpoints(body: Record<string, unknown>): number {
  let count = 0;
  const visit = (value: unknown): void => {
    if (!value || typeof value !== "object") return;
    if (Array.isArray(value)) return value.forEach(visit);
    const obj = value as Record<string, unknown>;
    if (obj.cache_control) count += 1;
    if (Array.isArray(obj.content)) visit(obj.content);
  };
  if (Array.isArray(body.system)) visit(body.system);
  if (Array.isArray(body.tools)) visit(body.tools);
  for (const message of (body.messages as Msg[] | undefined) ?? []) visit(blocksOf(message.content));
  return count;
}

export interface RuleOptions {
  /** The signature the server gave a thinking text: a thinking block sent back must carry it unchanged. */
  signatureOf?: (thinking: string) => string;
}

const isThinking = (b: Block | undefined) => b?.type === "thinking" || b?.type === "redacted_thinking";

/** Extended thinking's rules: the budget, the signatures, and a tool loop's assistant turn starting with its thinking. */
function thinkingProblem(body: Record<string, unknown>, messages: Msg[], options: RuleOptions): string | undefined {
  for (const [i, message] of messages.entries()) {
    if (message.role !== "assistant") continue;
    for (const [j, block] of blocksOf(message.content).entries()) {
      if (!isThinking(block)) continue;
      if (block.cache_control) return `messages.${i}.content.${j}.${block.type}.cache_control: Extra inputs are not permitted`;
      if (block.type === "thinking" && options.signatureOf) {
        if (typeof block.signature !== "string" || block.signature !== options.signatureOf(String(block.thinking))) {
          return `messages.${i}.content.${j}: Invalid \`signature\` in \`thinking\` block`;
        }
      }
    }
  }
  const thinking = body.thinking as { type?: string; budget_tokens?: unknown } | undefined;
  if (!thinking || thinking.type !== "enabled") return undefined;
  const budget = thinking.budget_tokens;
  if (!Number.isInteger(budget) || (budget as number) < 1024) return "thinking.enabled.budget_tokens: Input should be greater than or equal to 1024";
  if ((budget as number) >= (body.max_tokens as number)) return "`max_tokens` must be greater than `thinking.budget_tokens`";
  // In a tool loop (the last message holds tool results) the assistant turn before it must start with its thinking.
  const last = messages[messages.length - 1];
  const previous = messages[messages.length - 2];
  if (last?.role === "user" && previous?.role === "assistant" && blocksOf(last.content).some((b) => b.type === "tool_result")) {
    const first = blocksOf(previous.content)[0];
    if (!isThinking(first)) {
      return (
        `messages.${messages.length - 2}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${first?.type}\`. ` +
        "When `thinking` is enabled, a final `assistant` message must start with a thinking block."
      );
    }
  }
  return undefined;
}

/** The API's 400 message for a bad request, or undefined when the API would accept it. */
export function validateRequest(body: Record<string, unknown>, options: RuleOptions = {}): string | undefined {
  if (typeof body.model !== "string" || body.model === "") return "model: Field required";
  if (!Number.isInteger(body.max_tokens) || (body.max_tokens as number) < 0) {
    return "max_tokens: Input should be a non-negative integer";
  }
  const messages = body.messages as Msg[] | undefined;
  if (!Array.isArray(messages) || messages.length === 0) return "messages: at least one message is required";
  if (messages[0]?.role !== "user") return "messages: first message must use the \"user\" role";

  const tools = Array.isArray(body.tools) ? (body.tools as Block[]) : [];
  const names = tools.map((tool) => tool.name);
  if (new Set(names).size !== names.length) return "tools: Tool names must be unique.";
  const choice = body.tool_choice as { type?: string; name?: string } | undefined;
  if (choice?.type === "tool" && !names.includes(choice.name)) return `tool_choice.tool.name: Tool '${choice.name}' not found in tools`;
  if (choice?.type === "tool" || choice?.type === "any") {
    const thinking = body.thinking as { type?: string } | undefined;
    if (thinking?.type === "enabled") return "Thinking may not be enabled when tool_choice forces tool use.";
  }
  let usesTools = false;

  for (const [i, message] of messages.entries()) {
    if (message.role !== "user" && message.role !== "assistant") {
      return `messages.${i}.role: Input should be 'user' or 'assistant'`;
    }
    if (i > 0 && messages[i - 1]?.role === message.role) {
      return `messages.${i}: roles must alternate between "user" and "assistant" (fake-anthropic is strict here)`;
    }
    const blocks = blocksOf(message.content);
    const isLast = i === messages.length - 1;
    if (blocks.length === 0 && !(isLast && message.role === "assistant")) {
      return `messages.${i}: all messages must have non-empty content except for the optional final assistant message`;
    }
    for (const block of blocks) {
      if (block.type === "text" && block.text === "") return `messages.${i}: text content blocks must be non-empty`;
    }

    const toolUses = message.role === "assistant" ? blocks.filter((b) => b.type === "tool_use") : [];
    const results = message.role === "user" ? blocks.filter((b) => b.type === "tool_result") : [];
    if (toolUses.length > 0 || results.length > 0) usesTools = true;

    if (toolUses.length > 0) {
      const next = messages[i + 1];
      const answered = new Set(
        next ? blocksOf(next.content).filter((b) => b.type === "tool_result").map((b) => b.tool_use_id) : [],
      );
      const missing = toolUses.map((b) => b.id as string).filter((id) => !answered.has(id));
      if (missing.length > 0) {
        return (
          `messages.${i + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ` +
          `${missing.join(", ")}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`
        );
      }
    }
    if (results.length > 0) {
      const previous = i > 0 ? messages[i - 1] : undefined;
      const asked = new Set(
        previous?.role === "assistant"
          ? blocksOf(previous.content).filter((b) => b.type === "tool_use").map((b) => b.id)
          : [],
      );
      const ids = results.map((b) => b.tool_use_id as string);
      const unexpected = ids.filter((id) => !asked.has(id));
      if (unexpected.length > 0) {
        return (
          `messages.${i}.content: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${unexpected.join(", ")}. ` +
          "Each `tool_result` block must have a corresponding `tool_use` block in the previous message."
        );
      }
      if (new Set(ids).size !== ids.length) return `messages.${i}.content: duplicate \`tool_result\` ids`;
    }
  }

  if (usesTools && tools.length === 0) {
    return "Requests which include `tool_use` or `tool_result` blocks must define tools.";
  }
  const thinkingIssue = thinkingProblem(body, messages, options);
  if (thinkingIssue) return thinkingIssue;
  const breakpoints = countCacheBreakpoints(body);
  if (breakpoints > MAX_CACHE_BREAKPOINTS) {
    return `A maximum of ${MAX_CACHE_BREAKPOINTS} blocks with cache_control may be provided. Found ${breakpoints}.`;
  }
  return undefined;
}
