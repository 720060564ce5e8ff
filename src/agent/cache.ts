/**
 * Prompt-caching breakpoints. The API caches the prefix up to each `cache_control` marker; we
 * place three: system prompt, tool list, and the newest message's last block. Turn n+1 then
 * reads turn n's prefix from cache (0.1 × input price) and writes only the new tail. Older
 * messages carry no marker, so a request never exceeds the API's limit of 4 breakpoints.
 */
import type Anthropic from "@anthropic-ai/sdk";

type MessageParam = Anthropic.MessageParam;
type TextBlockParam = Anthropic.TextBlockParam;
type ToolParam = Anthropic.Tool;

export const EPHEMERAL: Anthropic.CacheControlEphemeral = Object.freeze({ type: "ephemeral" });

export interface CacheableRequest {
  system: TextBlockParam[];
  tools: ToolParam[];
  messages: MessageParam[];
}

function withoutMarker<T extends object>(block: T): T {
  if (!("cache_control" in block)) return block;
  const { cache_control: _dropped, ...rest } = block as T & { cache_control?: unknown };
  return rest as T;
}

function markLast<T extends object>(items: T[]): T[] {
  return items.map((item, i) => (i === items.length - 1 ? { ...withoutMarker(item), cache_control: EPHEMERAL } : withoutMarker(item)));
}

/** A message with no marker anywhere (a string content stays a string). */
function unmarked(message: MessageParam): MessageParam {
  if (typeof message.content === "string") return message;
  return { ...message, content: message.content.map((block) => withoutMarker(block)) } as MessageParam;
}

/** The newest message with its last block marked (a string content becomes one text block). */
function marked(message: MessageParam): MessageParam {
  const blocks = typeof message.content === "string" ? [{ type: "text" as const, text: message.content }] : message.content;
  return { ...message, content: markLast(blocks as Array<Anthropic.ContentBlockParam>) } as MessageParam;
}

/**
 * Copies the request with exactly the three breakpoints. Pure: inputs are not mutated, so the
 * loop can keep one system/tools value per run and the bytes sent stay identical every turn.
 */
export function withCacheBreakpoints(request: CacheableRequest): CacheableRequest {
  const last = request.messages.length - 1;
  return {
    system: markLast(request.system),
    tools: markLast(request.tools),
    messages: request.messages.map((message, i) => (i === last ? marked(message) : unmarked(message))),
  };
}
