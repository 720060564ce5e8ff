/**
 * A local stand-in for the Anthropic Messages API (`POST /v1/messages`), answering with the
 * same wire format as the real one (SSE when `stream: true`, JSON otherwise), so the real SDK
 * parses it unchanged. Replies are scripted; every request is recorded; requests the real API
 * would refuse get its 400 (see fake-anthropic-rules.ts). Running out of script is loud: the request
 * gets a 400 and `close()` throws, so a test cannot pass on a reply nobody wrote.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import type Anthropic from "@anthropic-ai/sdk";
import { createClient } from "../../src/agent/provider.js";
import { validateRequest } from "./fake-anthropic-rules.js";

export type FakeBlock =
  | { type: "text"; text: string }
  | { type: "tool_use"; name: string; input: unknown; id?: string };

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
  /** An SSE `event: error` after message_start (HTTP 200), as the API sends when overloaded mid-stream. */
  streamError?: { type: string; message: string };
}

export interface RecordedRequest {
  index: number;
  body: Record<string, any>;
  headers: http.IncomingHttpHeaders;
  /** The 400 message when the fake refused the request as the API would. */
  rejected?: string;
}

export type Script = FakeReply[] | ((request: RecordedRequest, index: number) => FakeReply | undefined | Promise<FakeReply | undefined>);

export interface FakeServer {
  url: string;
  requests: RecordedRequest[];
  /** Requests the fake refused with a 400 (API rules, or the script ran out). */
  rejections: string[];
  /** Stops the server; throws when the script ran out, or on a rejection unless `expectRejections`. */
  close(): Promise<void>;
}

const ERROR_TYPES: Record<number, string> = {
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
const approxTokens = (text: string) => Math.max(1, Math.ceil(text.length / 4));

/** Splits a string into `parts` pieces at arbitrary points, as the API splits streamed tool input. */
function splitInto(text: string, parts: number): string[] {
  if (text.length <= parts) return [text];
  const size = Math.ceil(text.length / parts);
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
}

function toMessage(reply: FakeReply, body: Record<string, any>, index: number) {
  const blocks: FakeBlock[] = reply.content ?? (reply.text !== undefined ? [{ type: "text", text: reply.text }] : []);
  let toolCounter = 0;
  const content = blocks.map((block) =>
    block.type === "text"
      ? { type: "text" as const, text: block.text, citations: null }
      : {
          type: "tool_use" as const,
          id: block.id ?? `toolu_fake_${index}_${toolCounter++}`,
          name: block.name,
          input: block.input,
          caller: { type: "direct" },
        },
  );
  const hasToolUse = content.some((block) => block.type === "tool_use");
  const outputChars = content.map((b) => (b.type === "text" ? b.text : JSON.stringify(b.input))).join("");
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

/** The SSE events the real API sends for a message, in order. */
function streamEvents(message: ReturnType<typeof toMessage>, reply: FakeReply): Array<[string, unknown]> {
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
  if (reply.streamError) {
    events.push(["error", { type: "error", error: reply.streamError }]);
    return events;
  }
  message.content.forEach((block, index) => {
    if (block.type === "text") {
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
  return events;
}

function sendError(res: http.ServerResponse, index: number, error: FakeError): void {
  const type = error.type ?? ERROR_TYPES[error.status] ?? "api_error";
  const body = { type: "error", error: { type, message: error.message ?? type }, request_id: `req_fake_${index}` };
  res.writeHead(error.status, {
    "content-type": "application/json",
    "request-id": `req_fake_${index}`,
    ...error.headers,
  });
  res.end(JSON.stringify(body));
}

export async function startFakeAnthropic(script: Script, options: { expectRejections?: boolean } = {}): Promise<FakeServer> {
  const requests: RecordedRequest[] = [];
  const rejections: string[] = [];
  let exhausted: string | undefined;

  const nextReply = async (request: RecordedRequest): Promise<FakeReply | undefined> => {
    if (typeof script === "function") return script(request, request.index);
    return script[request.index - requests.filter((r) => r.rejected && r.index < request.index).length];
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
    if (req.method !== "POST" || req.url?.split("?")[0] !== "/v1/messages") {
      return sendError(res, index, { status: 404, message: `fake-anthropic: no route ${req.method} ${req.url}` });
    }
    const body = JSON.parse(raw) as Record<string, any>;
    const request: RecordedRequest = { index, body, headers: req.headers };
    requests.push(request);
    if (!req.headers["x-api-key"] && !req.headers.authorization) {
      return sendError(res, index, { status: 401, message: "x-api-key header is required" });
    }
    const problem = validateRequest(body);
    if (problem) {
      request.rejected = problem;
      rejections.push(`request #${index}: ${problem}`);
      return sendError(res, index, { status: 400, message: problem });
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
    for (const [event, data] of streamEvents(message, reply)) {
      if (closed) return;
      res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
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

/** A real SDK client pointed at the fake; retries off unless asked for, so a test's errors stay fast. */
export function fakeClient(url: string, maxRetries = 0): Anthropic {
  return createClient({ apiKey: "test", baseURL: url, maxRetries });
}
