/**
 * A local stand-in for the Anthropic Messages API (`POST /v1/messages`), answering with the
 * same wire format as the real one (SSE when `stream: true`, JSON otherwise), so the real SDK
 * parses it unchanged. Replies are scripted; every request is recorded; requests the real API
 * would refuse get its 400 (see fake-anthropic-rules.ts). Running out of script is loud: the request
 * gets a 400 and `close()` throws, so a test cannot pass on a reply nobody wrote.
 */
import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type Anthropic from "@anthropic-ai/sdk";
import { createClient, type ClientOptions } from "../../src/agent/provider.js";
import { validateRequest } from "./fake-anthropic-rules.js";

export type FakeBlock =
  | { type: "text"; text: string }
  | { type: "tool_use"; name: string; input: unknown; id?: string }
  /** The fake signs it (see `signThinking`) unless a signature is given; sent back, it must be unchanged. */
  | { type: "thinking"; thinking: string; signature?: string }
  | { type: "redacted_thinking"; data: string };

export interface FakeUsage {
  input_tokens?: number;
  output_tokens?: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
}

export interface FakeError {
  status: number;
  type?: string;
  message?: string;
  /** e.g. `{ "retry-after-ms": "1" }`. */
  headers?: Record<string, string>;
}

export interface FakeReply {
  /** Shorthand for one text block. */
  text?: string;
  content?: FakeBlock[];
  /** Default: `tool_use` when a tool_use block is present, else `end_turn`. */
  stop_reason?: string;
  usage?: FakeUsage;
  /** Milliseconds before the response starts. */
  delay?: number;
  /** Milliseconds between SSE events (a slow stream). */
  eventDelay?: number;
  /** An HTTP error instead of a message. */
  error?: FakeError;
  /**
   * An SSE `event: error` inside a 200 stream, as the API sends when it overloads mid-reply:
   * after `afterEvents` events following message_start (default 0: right after it), so some
   * deltas may already have streamed.
   */
  streamError?: { type: string; message: string; afterEvents?: number };
  /** The connection is cut after this many SSE events (a dropped connection mid-stream). */
  dropAfterEvents?: number;
}

/** The API's 400 for a request over the model's context window. */
export const promptTooLong = (tokens: number, maximum = 200_000): FakeReply => ({
  error: { status: 400, type: "invalid_request_error", message: `prompt is too long: ${tokens} tokens > ${maximum} maximum` },
});

/** The signature the fake gives a thinking text; a block sent back with another one is refused. */
export const signThinking = (thinking: string) => `sig_fake_${createHash("sha256").update(thinking).digest("base64url").slice(0, 24)}`;

export interface RecordedRequest {
  index: number;
  body: Record<string, any>;
  headers: http.IncomingHttpHeaders;
  /** The 400 message when the fake refused the request as the API would. */
  rejected?: string;
  /** Set when the request got the API's 400 `prompt is too long` (its estimated input tokens). */
  tooLong?: number;
}

export type Script = FakeReply[] | ((request: RecordedRequest, index: number) => FakeReply | undefined | Promise<FakeReply | undefined>);

export interface FakeServer {
  url: string;
  requests: RecordedRequest[];
  /** Requests the fake refused with a 400 (API rules, or the script ran out). */
  rejections: string[];
  /** URLs of `GET /v1/models` requests answered. */
  listRequests: string[];
  /** Stops the server; throws when the script ran out, or on a rejection unless `expectRejections`. */
  close(): Promise<void>;
}

export const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  529: "overloaded_error",
};

/** Unref'd: a long scripted delay whose client went away must not keep the test process alive. */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());
export const approxTokens = (text: string) => Math.max(1, Math.ceil(text.length / 4));

/** Splits a string into `parts` pieces at arbitrary points, as the API splits streamed tool input. */
function splitInto(text: string, parts: number): string[] {
  if (text.length <= parts) return [text];
  const size = Math.ceil(text.length / parts);
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
}

export function toMessage(reply: FakeReply, body: Record<string, any>, index: number) {
  const blocks: FakeBlock[] = reply.content ?? (reply.text !== undefined ? [{ type: "text", text: reply.text }] : []);
  let toolCounter = 0;
  const content = blocks.map((block) => {
    switch (block.type) {
      case "text":
        return { type: "text" as const, text: block.text, citations: null };
      case "thinking":
        return { type: "thinking" as const, thinking: block.thinking, signature: block.signature ?? signThinking(block.thinking) };
      case "redacted_thinking":
        return { type: "redacted_thinking" as const, data: block.data };
      case "tool_use":
        return {
          type: "tool_use" as const,
          id: block.id ?? `toolu_fake_${index}_${toolCounter++}`,
          name: block.name,
          input: block.input,
          caller: { type: "direct" },
        };
    }
  });
  const hasToolUse = content.some((block) => block.type === "tool_use");
  const outputChars = content
    .map((b) => (b.type === "text" ? b.text : b.type === "thinking" ? b.thinking : b.type === "redacted_thinking" ? b.data : JSON.stringify(b.input)))
    .join("");
  const usage = {
    input_tokens:
      reply.usage?.input_tokens ??
      approxTokens(JSON.stringify({ system: body.system, tools: body.tools, messages: body.messages })),
    cache_creation_input_tokens: reply.usage?.cache_creation_input_tokens ?? 0,
    cache_read_input_tokens: reply.usage?.cache_read_input_tokens ?? 0,
    output_tokens: reply.usage?.output_tokens ?? approxTokens(outputChars),
    service_tier: "standard",
  };
  return {
    id: `msg_fake_${index}`,
    type: "message" as const,
    role: "assistant" as const,
    model: body.model as string,
    content,
    stop_reason: reply.stop_reason ?? (hasToolUse ? "tool_use" : "end_turn"),
    stop_sequence: null,
    stop_details: null,
    container: null,
    usage,
  };
}

/** The SSE events the real API sends for a message, in order (the cloud providers' stand-ins send the same: fake-providers.ts). */
export function streamEvents(message: ReturnType<typeof toMessage>, reply: FakeReply): Array<[string, unknown]> {
  const { usage } = message;
  const events: Array<[string, unknown]> = [
    [
      "message_start",
      {
        type: "message_start",
        message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } },
      },
    ],
  ];
  message.content.forEach((block, index) => {
    if (block.type === "thinking") {
      events.push(["content_block_start", { type: "content_block_start", index, content_block: { type: "thinking", thinking: "", signature: "" } }]);
      for (const piece of splitInto(block.thinking, 2)) {
        events.push(["content_block_delta", { type: "content_block_delta", index, delta: { type: "thinking_delta", thinking: piece } }]);
      }
      // Like the API: the signature arrives in one delta just before the block stops.
      events.push(["content_block_delta", { type: "content_block_delta", index, delta: { type: "signature_delta", signature: block.signature } }]);
    } else if (block.type === "redacted_thinking") {
      events.push(["content_block_start", { type: "content_block_start", index, content_block: block }]);
    } else if (block.type === "text") {
      events.push(["content_block_start", { type: "content_block_start", index, content_block: { type: "text", text: "", citations: null } }]);
      if (index === 0) events.push(["ping", { type: "ping" }]);
      for (const piece of splitInto(block.text, 3)) {
        events.push(["content_block_delta", { type: "content_block_delta", index, delta: { type: "text_delta", text: piece } }]);
      }
    } else {
      events.push([
        "content_block_start",
        { type: "content_block_start", index, content_block: { ...block, input: {} } },
      ]);
      if (index === 0) events.push(["ping", { type: "ping" }]);
      // Like the API: an empty first delta, then the JSON in arbitrary pieces.
      for (const piece of ["", ...splitInto(JSON.stringify(block.input), 3)]) {
        events.push(["content_block_delta", { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: piece } }]);
      }
    }
    events.push(["content_block_stop", { type: "content_block_stop", index }]);
  });
  events.push([
    "message_delta",
    {
      type: "message_delta",
      delta: { stop_reason: message.stop_reason, stop_sequence: null, stop_details: null },
      usage: {
        input_tokens: usage.input_tokens,
        cache_creation_input_tokens: usage.cache_creation_input_tokens,
        cache_read_input_tokens: usage.cache_read_input_tokens,
        output_tokens: usage.output_tokens,
      },
    },
  ]);
  events.push(["message_stop", { type: "message_stop" }]);
  if (reply.streamError) {
    const { afterEvents = 0, ...error } = reply.streamError;
    // The stream ends at the error: whatever came after it is never sent.
    const at = Math.min(1 + afterEvents, events.length - 2);
    return [...events.slice(0, at), ["error", { type: "error", error }]];
  }
  return events;
}

export function sendError(res: http.ServerResponse, index: number, error: FakeError): void {
  const type = error.type ?? ERROR_TYPES[error.status] ?? "api_error";
  const body = { type: "error", error: { type, message: error.message ?? type }, request_id: `req_fake_${index}` };
  res.writeHead(error.status, {
    "content-type": "application/json",
    "request-id": `req_fake_${index}`,
    ...error.headers,
  });
  res.end(JSON.stringify(body));
}

export interface FakeOptions {
  expectRejections?: boolean;
  /** The ids `GET /v1/models` lists (paginated as the API does); unset: the route is missing (404), as on some compatible endpoints. */
  models?: string[];
  /** Requests whose estimated input is larger get the API's 400 `prompt is too long`, without using the script. */
  maxPromptTokens?: number;
}

/** `GET /v1/models?limit=&after_id=`: the API's page shape. */
function modelsPage(models: string[], url: URL) {
  const limit = Math.min(1000, Math.max(1, Number(url.searchParams.get("limit") ?? 20) || 20));
  const after = url.searchParams.get("after_id");
  const start = after ? models.indexOf(after) + 1 : 0;
  const page = models.slice(start, start + limit);
  return {
    data: page.map((id) => ({ type: "model", id, display_name: id, created_at: "2026-01-01T00:00:00Z" })),
    has_more: start + limit < models.length,
    first_id: page[0] ?? null,
    last_id: page[page.length - 1] ?? null,
  };
}

export async function startFakeAnthropic(script: Script, options: FakeOptions = {}): Promise<FakeServer> {
  const requests: RecordedRequest[] = [];
  const listRequests: string[] = [];
  const rejections: string[] = [];
  let exhausted: string | undefined;

  const nextReply = async (request: RecordedRequest): Promise<FakeReply | undefined> => {
    if (typeof script === "function") return script(request, request.index);
    return script[request.index - requests.filter((r) => (r.rejected || r.tooLong) && r.index < request.index).length];
  };

  const server = http.createServer((req, res) => {
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (raw += chunk));
    req.on("end", () => {
      void handle(req, res, raw).catch((err: unknown) => {
        rejections.push(`fake-anthropic crashed: ${String(err)}`);
        if (!res.headersSent) sendError(res, -1, { status: 400, message: `fake-anthropic crashed: ${String(err)}` });
        else res.destroy();
      });
    });
  });

  // Aborted clients close the socket; stop writing to it then.
  const handle = async (req: http.IncomingMessage, res: http.ServerResponse, raw: string) => {
    const index = requests.length;
    if (req.method === "GET" && req.url?.split("?")[0] === "/v1/models" && options.models) {
      listRequests.push(req.url);
      res.writeHead(200, { "content-type": "application/json", "request-id": `req_fake_models_${listRequests.length}` });
      return res.end(JSON.stringify(modelsPage(options.models, new URL(req.url, "http://fake"))));
    }
    if (req.method !== "POST" || req.url?.split("?")[0] !== "/v1/messages") {
      return sendError(res, index, { status: 404, message: `fake-anthropic: no route ${req.method} ${req.url}` });
    }
    const body = JSON.parse(raw) as Record<string, any>;
    const request: RecordedRequest = { index, body, headers: req.headers };
    requests.push(request);
    if (!req.headers["x-api-key"] && !req.headers.authorization) {
      return sendError(res, index, { status: 401, message: "x-api-key header is required" });
    }
    const problem = validateRequest(body, { signatureOf: signThinking });
    if (problem) {
      request.rejected = problem;
      rejections.push(`request #${index}: ${problem}`);
      return sendError(res, index, { status: 400, message: problem });
    }
    const promptTokens = approxTokens(JSON.stringify({ system: body.system, tools: body.tools, messages: body.messages }));
    if (options.maxPromptTokens !== undefined && promptTokens > options.maxPromptTokens) {
      request.tooLong = promptTokens;
      return sendError(res, index, promptTooLong(promptTokens, options.maxPromptTokens).error!);
    }
    const reply = await nextReply(request);
    if (!reply) {
      exhausted ??= `fake-anthropic: script exhausted at request #${index} (no reply scripted for it)`;
      request.rejected = exhausted;
      console.error(exhausted);
      return sendError(res, index, { status: 400, message: exhausted });
    }
    let closed = false;
    res.on("close", () => (closed = true));
    if (reply.delay) await sleep(reply.delay);
    if (closed) return;
    if (reply.error) return sendError(res, index, reply.error);

    const message = toMessage(reply, body, index);
    if (!body.stream) {
      res.writeHead(200, { "content-type": "application/json", "request-id": `req_fake_${index}` });
      return res.end(JSON.stringify(message));
    }
    res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      "request-id": `req_fake_${index}`,
    });
    let sent = 0;
    for (const [event, data] of streamEvents(message, reply)) {
      if (closed) return;
      if (reply.dropAfterEvents !== undefined && sent >= reply.dropAfterEvents) {
        // A cut connection: no error event, no message_stop, the socket just goes away.
        res.socket?.destroy();
        return;
      }
      res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      sent += 1;
      if (reply.eventDelay) await sleep(reply.eventDelay);
    }
    res.end();
  };

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    rejections,
    listRequests,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (exhausted) throw new Error(exhausted);
      const apiRejections = rejections.filter((r) => !r.includes("script exhausted"));
      if (apiRejections.length > 0 && !options.expectRejections) {
        throw new Error(`fake-anthropic refused requests the real API would refuse:\n${apiRejections.join("\n")}`);
      }
    },
  };
}

/** A real SDK client pointed at the fake (the SDK's own retries are off, as in production). */
export function fakeClient(url: string, options: Omit<ClientOptions, "apiKey" | "baseURL"> = {}): Anthropic {
  return createClient({ apiKey: "test", baseURL: url, ...options });
}
