/**
 * GitHub's own REST description (the `@octokit/openapi` package) as a checker of the requests
 * crewbot makes to the GitHub stand-ins: the operation must exist for that method and path, be
 * open to GitHub Apps when an installation token calls it, and its path, query and body must fit
 * the description's schemas. GraphQL has one endpoint, POST with a `query` string.
 *
 * The descriptions are tens of MB; each is compiled once into a small index (operations, their
 * parameter and body schemas, the component schemas those refer to) and cached on disk by package
 * version, so a test process reads a few hundred KB, not the whole file.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { SCHEMA_KEYWORDS, schemaProblems, type Schema } from "./openapi-schema.js";

/** Which description a host speaks: api.github.com, or GitHub Enterprise Server under `/api/v3`. */
export type Flavour = "api.github.com" | "ghes";
/** The oldest GHES release the package describes: a call it accepts works on every newer one. */
export const GHES_DESCRIPTION = "ghes-3.17";
const FILES: Record<Flavour, string> = { "api.github.com": "api.github.com", ghes: GHES_DESCRIPTION };

interface Parameter {
  name: string;
  required: boolean;
  schema: Schema;
  multiSegment: boolean;
}

interface Operation {
  method: string;
  template: string;
  pathParams: Parameter[];
  queryParams: Parameter[];
  body?: { required: boolean; content: Record<string, Schema> };
  enabledForGitHubApps: boolean;
  /** Its documentation says "You must use a JWT": only the app itself, not a token, may call it. */
  jwtOnly: boolean;
}

interface CompiledDescription {
  version: string;
  operations: Operation[];
  schemas: Record<string, Schema>;
}

interface LoadedOperation extends Operation {
  regex: RegExp;
  literalLength: number;
}

interface Index {
  version: string;
  /** By first path segment (`repos`, `app`, …): the operations under it, most literal template first. */
  byFirstSegment: Map<string, LoadedOperation[]>;
  schemas: Record<string, Schema>;
}

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options"];
const require = createRequire(import.meta.url);
const packageDir = path.dirname(require.resolve("@octokit/openapi/package.json"));
const packageVersion = (JSON.parse(readFileSync(path.join(packageDir, "package.json"), "utf8")) as { version: string }).version;

type Json = Record<string, any>;

function strip(schema: Json, refs: Set<string>): Schema {
  const out: Json = {};
  for (const key of SCHEMA_KEYWORDS) {
    const v = schema[key];
    if (v === undefined) continue;
    if (key === "$ref") refs.add(String(v).replace("#/components/schemas/", ""));
    if (key === "properties") out[key] = Object.fromEntries(Object.entries(v as Json).map(([k, s]) => [k, strip(s as Json, refs)]));
    else if (key === "items" || (key === "additionalProperties" && typeof v === "object")) out[key] = strip(v as Json, refs);
    else if (key === "oneOf" || key === "anyOf" || key === "allOf") out[key] = (v as Json[]).map((s) => strip(s, refs));
    else out[key] = v;
  }
  return out as Schema;
}

/** The description reduced to what the checker needs. */
export function compileDescription(description: Json): CompiledDescription {
  const refs = new Set<string>();
  const deref = (o: Json, kind: string): Json => (o.$ref ? description.components[kind][String(o.$ref).split("/").pop()!] : o);
  const operations: Operation[] = [];
  for (const [template, item] of Object.entries(description.paths as Json)) {
    for (const method of METHODS) {
      const op = (item as Json)[method] as Json | undefined;
      if (!op) continue;
      const params = [...((item as Json).parameters ?? []), ...(op.parameters ?? [])].map((p: Json) => deref(p, "parameters"));
      const param = (p: Json): Parameter => ({ name: p.name, required: !!p.required, schema: strip(p.schema ?? {}, refs), multiSegment: !!p["x-multi-segment"] });
      const body = op.requestBody ? deref(op.requestBody, "requestBodies") : undefined;
      operations.push({
        method: method.toUpperCase(),
        template,
        pathParams: params.filter((p) => p.in === "path").map(param),
        queryParams: params.filter((p) => p.in === "query").map(param),
        ...(body && {
          body: {
            required: !!body.required,
            content: Object.fromEntries(Object.entries(body.content as Json).map(([type, c]) => [type, strip((c as Json).schema ?? {}, refs)])),
          },
        }),
        enabledForGitHubApps: op["x-github"]?.enabledForGitHubApps !== false,
        jwtOnly: /must use a \[?JWT/i.test(String(op.description ?? "")),
      });
    }
  }
  const schemas: Record<string, Schema> = {};
  for (let pending = [...refs]; pending.length > 0; ) {
    const found = new Set<string>();
    for (const name of pending) if (!(name in schemas)) schemas[name] = strip(description.components.schemas[name], found);
    pending = [...found].filter((n) => !(n in schemas));
  }
  return { version: String(description.info?.version ?? ""), operations, schemas };
}

// The cache is named by the package's version and this compiler's own code: either changing makes a new one.
const compilerHash = createHash("sha256").update(`${compileDescription}${strip}${SCHEMA_KEYWORDS.join()}`).digest("hex").slice(0, 12);

function compiled(flavour: Flavour): CompiledDescription {
  const file = FILES[flavour];
  const cache = path.join(packageDir, "..", "..", ".cache", "crewbot-openapi", `${file}-${packageVersion}-${compilerHash}.json`);
  try {
    return JSON.parse(readFileSync(cache, "utf8")) as CompiledDescription;
  } catch {
    const result = compileDescription(JSON.parse(readFileSync(path.join(packageDir, "generated", `${file}.json`), "utf8")) as Json);
    try {
      mkdirSync(path.dirname(cache), { recursive: true });
      // Written aside and renamed: parallel test processes never read half a file.
      const partial = `${cache}.${process.pid}.tmp`;
      writeFileSync(partial, JSON.stringify(result));
      renameSync(partial, cache);
      const stale = (name: string) => name.startsWith(`${file}-`) && name.endsWith(".json") && name !== path.basename(cache);
      for (const name of readdirSync(path.dirname(cache)).filter(stale)) rmSync(path.join(path.dirname(cache), name), { force: true });
    } catch {
      // A read-only node_modules only costs the next process the same compile.
    }
    return result;
  }
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function load(flavour: Flavour): Index {
  const { version, operations, schemas } = compiled(flavour);
  const byFirstSegment = new Map<string, LoadedOperation[]>();
  for (const op of operations) {
    const parts = op.template.split(/\{([^}]+)\}/);
    const source = parts
      .map((part, i) => (i % 2 === 0 ? escapeRegex(part) : op.pathParams.find((p) => p.name === part)?.multiSegment ? "(.+)" : "([^/]+)"))
      .join("");
    const literalLength = parts.filter((_, i) => i % 2 === 0).join("").length;
    const first = op.template.split("/")[1] ?? "";
    const list = byFirstSegment.get(first) ?? [];
    list.push({ ...op, regex: new RegExp(`^${source}$`), literalLength });
    byFirstSegment.set(first, list);
  }
  for (const list of byFirstSegment.values()) list.sort((a, b) => b.literalLength - a.literalLength);
  return { version, byFirstSegment, schemas };
}

const indexes = new Map<Flavour, Index>();
/** Compiled on first use, once per process. */
export function descriptionIndex(flavour: Flavour): Index {
  let index = indexes.get(flavour);
  if (!index) indexes.set(flavour, (index = load(flavour)));
  return index;
}

/** A parameter's text value against its schema (path and query values are strings on the wire). */
function parameterProblems(p: Parameter, raw: string, at: string, index: Index): string[] {
  let schema = p.schema;
  while (schema.$ref) schema = index.schemas[schema.$ref.replace("#/components/schemas/", "")]!;
  const types = [schema.type, ...(schema.oneOf ?? []).map((s) => s.type)].filter(Boolean);
  let value: unknown = raw;
  if (types.includes("integer") && /^-?\d+$/.test(raw)) value = Number(raw);
  else if (types.includes("number") && raw.trim() !== "" && Number.isFinite(Number(raw))) value = Number(raw);
  else if (types.includes("boolean") && (raw === "true" || raw === "false")) value = raw === "true";
  else if (types.includes("array")) value = raw.split(",");
  return schemaProblems(schema, value, at, (ref) => index.schemas[ref.replace("#/components/schemas/", "")]!);
}

export interface CheckedRequest {
  method: string;
  /** Absolute URL as sent. */
  url: string;
  headers?: Record<string, string | string[] | number | undefined>;
  /** The body as sent (text), if any. */
  body?: string;
}

function header(req: CheckedRequest, name: string): string {
  const found = Object.entries(req.headers ?? {}).find(([k]) => k.toLowerCase() === name);
  const value = found?.[1];
  return Array.isArray(value) ? value.join(", ") : value === undefined ? "" : String(value);
}

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

function parseBody(text: string | undefined): { value?: unknown; problem?: string } {
  if (text === undefined || text === "") return {};
  try {
    return { value: JSON.parse(text) };
  } catch {
    return { problem: "body is not JSON" };
  }
}

/** The REST checks: operation, GitHub App access, path and query parameters, body. */
export function restProblems(flavour: Flavour, req: CheckedRequest, apiPath: string, query: URLSearchParams): string[] {
  const index = descriptionIndex(flavour);
  const method = req.method.toUpperCase() === "HEAD" ? "GET" : req.method.toUpperCase();
  const matching = (index.byFirstSegment.get(apiPath.split("/")[1] ?? "") ?? []).filter((op) => op.regex.test(apiPath));
  const where = `${flavour === "ghes" ? GHES_DESCRIPTION : "api.github.com"}'s description`;
  const checked = matching.map((op) => {
    const values = op.regex.exec(apiPath)!.slice(1);
    const problems = op.pathParams.flatMap((p, i) => {
      const at = `path parameter ${p.name}`;
      const decoded = safeDecode(values[i] ?? "");
      return decoded === undefined ? [`${at} is not valid percent-encoding (got ${JSON.stringify(values[i])})`] : parameterProblems(p, decoded, at, index);
    });
    return { op, problems };
  });
  const fitting = checked.filter((c) => c.problems.length === 0);
  const found = fitting.find((c) => c.op.method === method);
  if (found) return operationProblems(found.op, req, query, index);
  if (fitting.length > 0) {
    const methods = [...new Set(fitting.filter((c) => c.op.template === fitting[0]!.op.template).map((c) => c.op.method))];
    return [`${method} is not allowed on ${fitting[0]!.op.template} (${where} has ${methods.join(", ")})`];
  }
  // A template of this method fits but for its parameters (`/pulls/undefined`): say which one is wrong.
  const nearest = checked.find((c) => c.op.method === method);
  if (nearest) return nearest.problems.map((p) => `${p} (as ${nearest.op.template})`);
  return [`no such endpoint in ${where}`];
}

function operationProblems(op: LoadedOperation, req: CheckedRequest, query: URLSearchParams, index: Index): string[] {
  const problems: string[] = [];
  const authorization = header(req, "authorization");
  const jwt = /^bearer eyJ[\w-]*\.[\w-]*\.[\w-]*$/i.test(authorization);
  if (!op.enabledForGitHubApps && /^(token|bearer) ghs_/i.test(authorization)) {
    problems.push(`${op.method} ${op.template} is not enabled for GitHub Apps: an installation token is refused`);
  }
  if (op.jwtOnly && !jwt) problems.push(`${op.method} ${op.template} takes only the app's JWT (got ${authorization ? "a token" : "no authorization"})`);
  if (!op.jwtOnly && jwt) problems.push(`${op.method} ${op.template} takes an installation or user token: the app's JWT reaches only the app's own endpoints`);
  for (const p of op.queryParams) {
    const raw = query.get(p.name);
    if (raw === null) {
      if (p.required) problems.push(`query parameter ${p.name} is required`);
    } else problems.push(...parameterProblems(p, raw, `query parameter ${p.name}`, index));
  }
  if (!op.body) return problems;
  const json = op.body.content["application/json"];
  const parsed = parseBody(req.body);
  if (parsed.value === undefined && !parsed.problem) {
    if (op.body.required) problems.push("a request body is required");
    return problems;
  }
  if (!json) return problems; // raw uploads (text, octet-stream): their content is not described
  if (parsed.problem) return [...problems, parsed.problem];
  return [...problems, ...schemaProblems(json, parsed.value, "body", (ref) => index.schemas[ref.replace("#/components/schemas/", "")]!)];
}

/** GitHub's GraphQL endpoint takes one POST whose JSON body holds a `query` string. */
function graphqlProblems(req: CheckedRequest): string[] {
  if (req.method.toUpperCase() !== "POST") return [`GraphQL is POST only (got ${req.method.toUpperCase()})`];
  const { value, problem } = parseBody(req.body);
  if (problem) return [problem];
  if (typeof value !== "object" || value === null || Array.isArray(value)) return ["body must be a JSON object with a query"];
  const body = value as Record<string, unknown>;
  const problems: string[] = [];
  if (typeof body.query !== "string" || body.query.trim() === "") problems.push("body.query must be a non-empty string");
  if (body.variables !== undefined && body.variables !== null && (typeof body.variables !== "object" || Array.isArray(body.variables))) problems.push("body.variables must be an object");
  if (body.operationName !== undefined && body.operationName !== null && typeof body.operationName !== "string") problems.push("body.operationName must be a string");
  for (const key of Object.keys(body)) if (!["query", "variables", "operationName"].includes(key)) problems.push(`body.${key} is not read by GitHub's GraphQL endpoint (variables go in body.variables)`);
  return problems;
}

/** The OAuth web flow lives on the web host, outside the REST description. */
function oauthProblems(req: CheckedRequest, pathname: string, query: URLSearchParams): string[] {
  const method = req.method.toUpperCase();
  if (pathname === "/login/oauth/authorize") return method === "GET" ? (query.get("client_id") ? [] : ["query parameter client_id is required"]) : [`${method} is not allowed on ${pathname}`];
  if (pathname !== "/login/oauth/access_token") return ["no such endpoint on GitHub's web host (the API is under /api/v3 on Enterprise Server)"];
  if (method !== "POST") return [`${method} is not allowed on ${pathname}`];
  const text = req.body ?? "";
  const fields = header(req, "content-type").includes("json") ? ((parseBody(text).value ?? {}) as Record<string, unknown>) : Object.fromEntries(new URLSearchParams(text));
  const problems = ["client_id", "client_secret"].filter((f) => !fields[f]).map((f) => `body.${f} is required`);
  if (!fields.code && !fields.refresh_token) problems.push("body.code (or body.refresh_token) is required");
  return problems;
}

/**
 * Why GitHub would refuse this request (empty: the description accepts it). Each problem names
 * the method and path. api.github.com is checked against its description; any other host is an
 * Enterprise Server (REST under `/api/v3`, GraphQL at `/api/graphql`, OAuth at `/login/oauth`).
 */
export function githubRequestProblems(req: CheckedRequest): string[] {
  const url = new URL(req.url);
  const label = `${req.method.toUpperCase()} ${url.pathname}${url.search}`;
  const host = url.hostname.toLowerCase();
  let problems: string[];
  if (host === "api.github.com") {
    problems = url.pathname === "/graphql" ? graphqlProblems(req) : restProblems("api.github.com", req, url.pathname, url.searchParams);
  } else if (url.pathname.startsWith("/login/oauth/")) {
    problems = oauthProblems(req, url.pathname, url.searchParams);
  } else if (host === "github.com") {
    problems = ["github.com serves no API (use api.github.com)"];
  } else if (url.pathname === "/api/graphql") {
    problems = graphqlProblems(req);
  } else if (url.pathname.startsWith("/api/v3/")) {
    problems = restProblems("ghes", req, url.pathname.slice("/api/v3".length), url.searchParams);
  } else {
    problems = [`not a GitHub Enterprise Server API path (REST is under /api/v3, GraphQL at /api/graphql)`];
  }
  return problems.map((p) => `${label}: ${p}`);
}
