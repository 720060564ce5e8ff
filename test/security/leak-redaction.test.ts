/**
 * Secrets: the redaction mechanisms every output passes — GitHub writes, log lines,
 * model requests — against the forms a secret takes on its way out (quoted in a git header,
 * inside JSON, a key with escaped line ends or read from a file, an Error's stack).
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { Writable } from "node:stream";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { redactingFetch } from "../../src/agent/provider.js";
import { GitHubWriter } from "../../src/report/github-writer.js";
import { REDACTED, redact, redactingLogger, redactJson, secretsFromEnv } from "../../src/secrets/redact.js";
import { PRIVATE_KEY } from "../helpers/app-stand-ins.js";
import { tempDir } from "../helpers/git-repo.js";

const TOKEN = `ghs_${"k9L".repeat(12)}`;
const HEADER = `Authorization: Basic ${Buffer.from(`x-access-token:${TOKEN}`).toString("base64")}`;
const KEY_LINE = PRIVATE_KEY.split("\n")[3]!;
const ODD_SECRET = "plain-webhook-secret-no-shape";

describe("redaction of the forms a secret takes", () => {
  it("a token quoted inside git's Authorization header (base64) is redacted", () => {
    expect(redact(`fatal: ${HEADER}`, [TOKEN])).toBe(`fatal: Authorization: Basic ${REDACTED}`);
  });

  it("the private key, whole, line by line, with CRLF or given with escaped line ends", () => {
    const escaped = PRIVATE_KEY.replace(/\n/g, "\\n");
    const secrets = secretsFromEnv({ PRIVATE_KEY: escaped });
    expect(redact(`key: ${KEY_LINE}`, secrets)).toBe(`key: ${REDACTED}`);
    expect(redact(PRIVATE_KEY.replace(/\n/g, "\r\n"), secrets)).not.toContain(KEY_LINE);
    expect(redact(escaped, secrets)).not.toContain(KEY_LINE);
  });

  it("the private key read from PRIVATE_KEY_PATH is a secret too", async () => {
    const file = path.join(await tempDir("crewbot-key-"), "app.pem");
    writeFileSync(file, PRIVATE_KEY);
    expect(redact(`leaked ${KEY_LINE}`, secretsFromEnv({ PRIVATE_KEY_PATH: file }))).toBe(`leaked ${REDACTED}`);
  });

  it("redactJson keeps JSON valid while taking out secrets, token shapes and a PEM key cut short", () => {
    const body = JSON.stringify({ messages: [{ content: `${ODD_SECRET} ${TOKEN} "q" ${PRIVATE_KEY.slice(0, 300)}`, tail: "kept" }] });
    const out = redactJson(body, [ODD_SECRET]);
    const parsed = JSON.parse(out);
    expect(parsed.messages[0].tail).toBe("kept");
    expect(out).not.toContain(ODD_SECRET);
    expect(out).not.toContain(TOKEN);
    expect(out).not.toContain(KEY_LINE.slice(0, 40));
    expect(parsed.messages[0].content).toContain('"q"');
  });

  it("the model client's fetch sends a redacted body", async () => {
    const seen: string[] = [];
    const base = async (_input: string | URL | Request, init?: RequestInit) => (seen.push(String(init?.body)), new Response("{}"));
    await redactingFetch([ODD_SECRET], base)("http://model.invalid/v1/messages", { method: "POST", body: JSON.stringify({ x: `${ODD_SECRET} ${TOKEN}` }) });
    expect(JSON.parse(seen[0]!)).toEqual({ x: `${REDACTED} ${REDACTED}` });
  });

  it("the GitHub writer redacts a header-quoted token in any field", async () => {
    const sent: Array<Record<string, unknown>> = [];
    const writer = new GitHubWriter({
      octokit: { request: async (_route, params) => (sent.push(params ?? {}), { status: 201, headers: {}, data: {} }) },
      secrets: [TOKEN],
      minSpacingMs: 0,
    });
    await writer.write("POST /repos/{owner}/{repo}/check-runs", { owner: "o", repo: "r", output: { summary: `push failed: ${HEADER}` } });
    expect(JSON.stringify(sent)).not.toContain(Buffer.from(`x-access-token:${TOKEN}`).toString("base64"));
  });
});

describe("the redacting logger (what compose.ts gives every part of the app)", () => {
  function capture() {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk, _e, done) => (lines.push(String(chunk)), done()) });
    return { lines, log: pino({ level: "trace" }, sink) };
  }

  it("redacts messages, fields, errors (message and stack) and child loggers, at every level", () => {
    const { lines, log } = capture();
    const safe = redactingLogger(log, () => [ODD_SECRET]);
    const err = new Error(`git push failed: ${HEADER}`);
    safe.info({ outcome: `❌ Failed: ${TOKEN}`, nested: { list: [ODD_SECRET] } }, "job ended");
    safe.error({ err, jobId: "j1" }, `job handler threw ${ODD_SECRET}`);
    safe.child({ jobId: "j2" }).warn(`child ${TOKEN}`);
    safe.trace("trace %s", ODD_SECRET);
    const text = lines.join("");
    expect(lines).toHaveLength(4);
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(ODD_SECRET);
    expect(text).not.toContain(Buffer.from(`x-access-token:${TOKEN}`).toString("base64"));
    expect(text).toContain('"jobId":"j2"');
    expect(JSON.parse(lines[1]!).err).toMatchObject({ type: "Error", message: `git push failed: Authorization: Basic ${REDACTED}` });
  });

  it("leaves the logger's level and other properties alone", () => {
    const { log } = capture();
    const safe = redactingLogger(log, () => []);
    safe.level = "warn";
    expect(log.level).toBe("warn");
    expect(safe.isLevelEnabled("info")).toBe(false);
  });
});
