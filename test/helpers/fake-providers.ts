/**
 * Local stand-ins for the cloud providers crewbot reaches Claude through, each speaking its
 * provider's own wire format and refusing what it refuses, so the real provider SDK (through
 * createClient) is tested end to end:
 *
 * - Amazon Bedrock: `POST /model/<id>/invoke-with-response-stream`, SigV4 checked by recomputing
 *   the signature, the reply in AWS's binary event-stream framing (aws-wire.ts); errors as AWS
 *   sends them (`x-amzn-ErrorType`, `{"message"}`), exceptions inside the stream as exception frames.
 * - Vertex AI: `POST /v1/projects/<p>/locations/<r>/publishers/anthropic/models/<id>:streamRawPredict`,
 *   a bearer token this server issued through Google's token exchange (`/v1/token`, reached by an
 *   `external_account` credentials file), `anthropic_version: vertex-2023-10-16` in the body and no
 *   `model`; SSE replies; Google's error shape (`RESOURCE_EXHAUSTED`).
 * - Microsoft Foundry: `POST /anthropic/v1/messages` with the resource's key, or an Entra ID bearer token
 *   (fake-entra.ts issues them; refused in Azure's gateway shape, `{"statusCode":401,"message"}`); the
 *   Messages API itself.
 *
 * The replies are fake-anthropic's (the same scripts, the same request rules); every request is
 * recorded with its body as the Messages API would have had it (`model` back in) and as it came.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { chunkFrame, exceptionFrame, sigV4Problem } from "./aws-wire.js";
import { sendError as sendAnthropicError, streamEvents, toMessage, type FakeError, type FakeReply, type RecordedRequest, type Script } from "./fake-anthropic.js";
import { validateRequest } from "./fake-anthropic-rules.js";

export type ProviderKind = "bedrock" | "vertex" | "foundry";

export interface ProviderRequest extends RecordedRequest {
  path: string;
  /** The model as the provider was asked for it (path or body). */
  model: string;
  /** The body as it came over the wire. */
  wire: Record<string, any>;
}

export interface ProviderFake {
  kind: ProviderKind;
  url: string;
  /** The operator's environment that points crewbot at this stand-in. */
  env: NodeJS.ProcessEnv;
  requests: ProviderRequest[];
  /** Requests refused as the provider would refuse them (auth, route, shape, rules). */
  rejections: string[];
  /** Vertex: the token exchanges answered. */
  tokenRequests: number;
  close(): Promise<void>;
}

export interface ProviderFakeOptions {
  expectRejections?: boolean;
  /** The model ids the provider serves; default: any id of its shape. */
  models?: string[];
  /** Foundry: take Entra ID bearer tokens (those a fake-entra.ts stand-in issued) instead of the resource's key, which `env` then leaves out. */
  entraTokens?: ReadonlySet<string>;
}

const ID_SHAPE: Record<ProviderKind, RegExp> = {
  bedrock: /^(?:(?:global|us|eu|apac|jp|au|ca)\.)?anthropic\.claude-[a-z0-9-]+(?:-v\d+(?::\d+)?)?$|^arn:aws:bedrock:/,
  vertex: /^claude-[a-z0-9-]+(?:@\d{8})?$/,
  foundry: /^[A-Za-z0-9][A-Za-z0-9._-]*$/,
};

const AWS_TYPES: Record<number, string> = {
  400: "ValidationException",
  403: "AccessDeniedException",
  404: "ResourceNotFoundException",
  408: "ModelTimeoutException",
  424: "ModelErrorException",
  429: "ThrottlingException",
  500: "InternalServerException",
  503: "ServiceUnavailableException",
};

const GOOGLE_STATUS: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  429: "RESOURCE_EXHAUSTED",
  500: "INTERNAL",
  503: "UNAVAILABLE",
};

/** What a wire made of a request: the model, the Messages-shaped body, or why the provider refuses it. */
type Accepted = { model: string; stream: boolean; body: Record<string, any> } | { refuse: FakeError };

interface Wire {
  accept(req: http.IncomingMessage, raw: Buffer): Accepted;
  sendError(res: http.ServerResponse, index: number, error: FakeError): void;
  /** `event` is the SSE event's name; a Bedrock stream frames it instead. */
  frame(event: string, data: any): Buffer | string;
  streamHeaders: Record<string, string>;
}

const json = (raw: Buffer): Record<string, any> | undefined => {
  try {
    const value = JSON.parse(raw.toString("utf8")) as unknown;
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, any>) : undefined;
  } catch {
    return undefined;
  }
};

function bedrockWire(keys: { accessKeyId: string; secretAccessKey: string; region: string }, models: string[] | undefined): Wire {
  return {
    accept(req, raw) {
      const route = /^\/model\/([^/]+)\/(invoke|invoke-with-response-stream)$/.exec(req.url ?? "");
      if (req.method !== "POST" || !route) return { refuse: { status: 404, type: "UnknownOperationException", message: `no route ${req.method} ${req.url}` } };
      const signature = sigV4Problem(req, raw, { ...keys, service: "bedrock" });
      if (signature) return { refuse: { status: 403, type: signature.startsWith("The request signature") ? "InvalidSignatureException" : "UnrecognizedClientException", message: signature } };
      const model = decodeURIComponent(route[1]!);
      if (!ID_SHAPE.bedrock.test(model) || (models && !models.includes(model))) return { refuse: { status: 400, message: "The provided model identifier is invalid." } };
      const body = json(raw);
      if (!body) return { refuse: { status: 400, message: "Malformed input request, please reformat your input and try again." } };
      for (const key of ["model", "stream"]) if (key in body) return { refuse: { status: 400, message: `Malformed input request: #: extraneous key [${key}] is not permitted, please reformat your input and try again.` } };
      if (body.anthropic_version !== "bedrock-2023-05-31") return { refuse: { status: 400, message: `Malformed input request: #/anthropic_version: ${body.anthropic_version ?? "required key [anthropic_version] not found"} is not a supported version` } };
      const { anthropic_version: _version, ...rest } = body;
      return { model, stream: route[2] === "invoke-with-response-stream", body: { ...rest, model } };
    },
    sendError(res, index, error) {
      const type = error.type ?? AWS_TYPES[error.status] ?? "InternalServerException";
      res.writeHead(error.status, {
        "content-type": "application/json",
        "x-amzn-requestid": `req-bedrock-${index}`,
        "x-amzn-errortype": `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/`,
        ...error.headers,
      });
      res.end(JSON.stringify({ message: error.message ?? type }));
    },
    frame: (event, data) => (event === "error" ? exceptionFrame(String(data.error.type), String(data.error.message)) : chunkFrame(data)),
    streamHeaders: { "content-type": "application/vnd.amazon.eventstream", "x-amzn-bedrock-content-type": "application/json" },
  };
}

function vertexWire(project: string, region: string, tokens: Set<string>, models: string[] | undefined): Wire {
  const sendGoogle = (res: http.ServerResponse, error: FakeError) => {
    res.writeHead(error.status, { "content-type": "application/json; charset=UTF-8", ...error.headers });
    res.end(JSON.stringify({ error: { code: error.status, message: error.message ?? GOOGLE_STATUS[error.status], status: GOOGLE_STATUS[error.status] ?? "UNKNOWN" } }));
  };
  return {
    accept(req, raw) {
      const route = /^\/v1\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/anthropic\/models\/([^/:]+):(rawPredict|streamRawPredict)$/.exec(req.url ?? "");
      if (req.method !== "POST" || !route) return { refuse: { status: 404, message: `The requested URL ${req.url} was not found on this server.` } };
      const token = /^Bearer (\S+)$/.exec(req.headers.authorization ?? "")?.[1];
      if (!token || !tokens.has(token)) return { refuse: { status: 401, message: "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential." } };
      const [, p, r, rawModel, method] = route as unknown as string[];
      if (p !== project || r !== region) return { refuse: { status: 403, message: `Permission denied on resource project ${p} (location ${r}).` } };
      const model = decodeURIComponent(rawModel!);
      if (!ID_SHAPE.vertex.test(model) || (models && !models.includes(model))) {
        return { refuse: { status: 404, message: `Publisher Model \`projects/${p}/locations/${r}/publishers/anthropic/models/${model}\` not found.` } };
      }
      const body = json(raw);
      if (!body) return { refuse: { status: 400, message: "Invalid JSON payload received." } };
      if ("model" in body) return { refuse: { status: 400, type: "invalid_request_error", message: "model: Extra inputs are not permitted" } };
      if (body.anthropic_version !== "vertex-2023-10-16") return { refuse: { status: 400, type: "invalid_request_error", message: `anthropic_version: Input should be 'vertex-2023-10-16'` } };
      if (Boolean(body.stream) !== (method === "streamRawPredict")) return { refuse: { status: 400, message: `stream must be ${method === "streamRawPredict"} for ${method}` } };
      const { anthropic_version: _version, ...rest } = body;
      return { model, stream: method === "streamRawPredict", body: { ...rest, model } };
    },
    // An error of the model itself (a type of Anthropic's) comes through as Anthropic sent it; Google's own (quota, auth) in Google's shape.
    sendError: (res, index, error) => (error.type && /_error$/.test(error.type) ? sendAnthropicError(res, index, error) : sendGoogle(res, error)),
    frame: (event, data) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`,
    streamHeaders: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" },
  };
}

/** Azure's gateway refuses a bearer it does not accept before the model sees the request, in its own shape. */
const AZURE_GATEWAY = "azure_gateway";

/** Foundry's own check: the resource's key, or with `entraTokens` an Entra bearer token instead. */
function foundryAuthProblem(req: http.IncomingMessage, apiKey: string, entraTokens: ReadonlySet<string> | undefined): FakeError | undefined {
  if (entraTokens) {
    const bearer = /^Bearer (\S+)$/.exec(req.headers.authorization ?? "")?.[1];
    if (bearer && entraTokens.has(bearer)) return undefined;
    return { status: 401, type: AZURE_GATEWAY, message: "Unauthorized. Access token is missing, invalid, audience is incorrect (https://cognitiveservices.azure.com), or have expired." };
  }
  if (req.headers["x-api-key"] === apiKey) return undefined;
  return {
    status: 401,
    message:
      "Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.",
  };
}

function foundryWire(apiKey: string, entraTokens: ReadonlySet<string> | undefined, models: string[] | undefined): Wire {
  return {
    accept(req, raw) {
      if (req.method !== "POST" || req.url !== "/anthropic/v1/messages") return { refuse: { status: 404, message: "Resource not found" } };
      const auth = foundryAuthProblem(req, apiKey, entraTokens);
      if (auth) return { refuse: auth };
      if (!req.headers["anthropic-version"]) return { refuse: { status: 400, message: "anthropic-version: header is required" } };
      const body = json(raw);
      if (!body) return { refuse: { status: 400, message: "There was an issue with your request body" } };
      const model = String(body.model ?? "");
      if (!ID_SHAPE.foundry.test(model) || (models && !models.includes(model))) return { refuse: { status: 404, type: "not_found_error", message: `The API deployment for this resource does not exist: ${model}` } };
      return { model, stream: body.stream === true, body };
    },
    sendError(res, index, error) {
      if (error.type !== AZURE_GATEWAY) return sendAnthropicError(res, index, error);
      res.writeHead(error.status, { "content-type": "application/json", "apim-request-id": randomUUID() });
      res.end(JSON.stringify({ statusCode: error.status, message: error.message }));
    },
    frame: (event, data) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`,
    streamHeaders: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" },
  };
}

/** An `external_account` credentials file whose token exchange goes to this stand-in. */
function googleCredentialsFile(url: string, subjectToken: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "crewbot-gcp-"));
  writeFileSync(path.join(dir, "subject-token"), subjectToken);
  const file = path.join(dir, "credentials.json");
  const credentials = {
    type: "external_account",
    audience: "//iam.googleapis.com/projects/123/locations/global/workloadIdentityPools/crewbot/providers/test",
    subject_token_type: "urn:ietf:params:oauth:token-type:jwt",
    token_url: `${url}/v1/token`,
    credential_source: { file: path.join(dir, "subject-token") },
  };
  writeFileSync(file, JSON.stringify(credentials));
  return file;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

export async function startFakeProvider(kind: ProviderKind, script: Script, options: ProviderFakeOptions = {}): Promise<ProviderFake> {
  const requests: ProviderRequest[] = [];
  const rejections: string[] = [];
  const tokens = new Set<string>();
  const subjectToken = `subject-${randomBytes(8).toString("hex")}`;
  let tokenRequests = 0;
  let exhausted: string | undefined;
  const keys = { accessKeyId: "AKIDCREWBOTTEST00001", secretAccessKey: randomBytes(20).toString("base64"), region: "eu-central-1" };
  const foundryKey = randomBytes(16).toString("hex");
  const project = "crewbot-test";
  const region = "us-east5";
  const wire =
    kind === "bedrock" ? bedrockWire(keys, options.models) : kind === "vertex" ? vertexWire(project, region, tokens, options.models) : foundryWire(foundryKey, options.entraTokens, options.models);

  /** Google's token exchange (STS): the subject token from the credentials file for an access token. */
  const exchange = (raw: Buffer, res: http.ServerResponse) => {
    const form = new URLSearchParams(raw.toString("utf8"));
    const problem =
      form.get("grant_type") !== "urn:ietf:params:oauth:grant-type:token-exchange"
        ? "unsupported grant_type"
        : form.get("subject_token") !== subjectToken
          ? "invalid subject token"
          : !form.get("scope")?.split(" ").includes("https://www.googleapis.com/auth/cloud-platform")
            ? "scope must include cloud-platform"
            : undefined;
    if (problem) {
      rejections.push(`token exchange: ${problem}`);
      res.writeHead(400, { "content-type": "application/json" });
      return res.end(JSON.stringify({ error: "invalid_request", error_description: problem }));
    }
    tokenRequests += 1;
    const token = `ya29.fake-${randomBytes(12).toString("hex")}`;
    tokens.add(token);
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ access_token: token, issued_token_type: "urn:ietf:params:oauth:token-type:access_token", token_type: "Bearer", expires_in: 3600 }));
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse, raw: Buffer) => {
    if (kind === "vertex" && req.method === "POST" && req.url === "/v1/token") return exchange(raw, res);
    const index = requests.length;
    const accepted = wire.accept(req, raw);
    if ("refuse" in accepted) {
      rejections.push(`${req.method} ${req.url}: ${accepted.refuse.status} ${accepted.refuse.message}`);
      return wire.sendError(res, index, accepted.refuse);
    }
    const request: ProviderRequest = { index, body: accepted.body, headers: req.headers, path: req.url ?? "", model: accepted.model, wire: json(raw)! };
    requests.push(request);
    const problem = validateRequest(accepted.body);
    if (problem) {
      request.rejected = problem;
      rejections.push(`request #${index}: ${problem}`);
      return wire.sendError(res, index, { status: 400, ...(kind === "bedrock" ? {} : { type: "invalid_request_error" }), message: problem });
    }
    const reply: FakeReply | undefined = typeof script === "function" ? await script(request, index) : script[index - requests.filter((r) => r.rejected && r.index < index).length];
    if (!reply) {
      exhausted ??= `fake ${kind}: script exhausted at request #${index}`;
      request.rejected = exhausted;
      return wire.sendError(res, index, { status: 400, message: exhausted });
    }
    let closed = false;
    res.on("close", () => (closed = true));
    if (reply.delay) await sleep(reply.delay);
    if (closed) return;
    if (reply.error) return wire.sendError(res, index, reply.error);
    const message = toMessage(reply, accepted.body, index);
    if (!accepted.stream) {
      res.writeHead(200, { "content-type": "application/json" });
      return res.end(JSON.stringify(message));
    }
    res.writeHead(200, wire.streamHeaders);
    let sent = 0;
    for (const [event, data] of streamEvents(message, reply)) {
      if (closed) return;
      if (reply.dropAfterEvents !== undefined && sent >= reply.dropAfterEvents) return void res.socket?.destroy();
      res.write(wire.frame(event, data));
      sent += 1;
      if (reply.eventDelay) await sleep(reply.eventDelay);
    }
    res.end();
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      void handle(req, res, Buffer.concat(chunks)).catch((err: unknown) => {
        rejections.push(`fake ${kind} crashed: ${String(err)}`);
        if (!res.headersSent) wire.sendError(res, -1, { status: 500, message: String(err) });
        else res.destroy();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const env: NodeJS.ProcessEnv =
    kind === "bedrock"
      ? { CREWBOT_MODEL_PROVIDER: "bedrock", AWS_REGION: keys.region, AWS_ACCESS_KEY_ID: keys.accessKeyId, AWS_SECRET_ACCESS_KEY: keys.secretAccessKey, ANTHROPIC_BEDROCK_BASE_URL: url }
      : kind === "vertex"
        ? { CREWBOT_MODEL_PROVIDER: "vertex", CLOUD_ML_REGION: region, ANTHROPIC_VERTEX_PROJECT_ID: project, GOOGLE_APPLICATION_CREDENTIALS: googleCredentialsFile(url, subjectToken), ANTHROPIC_VERTEX_BASE_URL: `${url}/v1` }
        : { CREWBOT_MODEL_PROVIDER: "foundry", ANTHROPIC_FOUNDRY_BASE_URL: `${url}/anthropic/`, ...(options.entraTokens ? {} : { ANTHROPIC_FOUNDRY_API_KEY: foundryKey }) };

  return {
    kind,
    url,
    env,
    requests,
    rejections,
    get tokenRequests() {
      return tokenRequests;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (exhausted) throw new Error(exhausted);
      if (rejections.length > 0 && !options.expectRejections) throw new Error(`fake ${kind} refused requests the real provider would refuse:\n${rejections.join("\n")}`);
    },
  };
}
