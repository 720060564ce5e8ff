/**
 * `npm start` and `npm run worker` as an operator runs them after Probot's setup page: the
 * credentials only in `.env` of the working directory, nothing exported. Both must come up as
 * crewbot (their `/healthz` is crewbot's), not as a Probot with no handler.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { freePort } from "../helpers/app-stand-ins.js";
import { tempDir } from "../helpers/git-repo.js";

const DIST = path.resolve(import.meta.dirname, "../../dist");
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});

/** A working directory whose `.env` holds the app's credentials, as the setup page writes them. */
async function operatorDir(extra: Record<string, string>): Promise<string> {
  const dir = await tempDir("crewbot-dotenv-");
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  await writeFile(path.join(dir, "key.pem"), privateKey.export({ type: "pkcs1", format: "pem" }));
  const lines = { APP_ID: "12345", PRIVATE_KEY_PATH: path.join(dir, "key.pem"), WEBHOOK_SECRET: "from-dotenv", CREWBOT_DATA_DIR: path.join(dir, "data"), LOG_LEVEL: "warn", ...extra };
  await writeFile(path.join(dir, ".env"), Object.entries(lines).map(([k, v]) => `${k}=${v}`).join("\n"));
  return dir;
}

/** Starts `node dist/<script>` in `cwd` with a bare environment; resolves with what `/healthz` answered. */
async function healthOf(script: string, cwd: string, port: number): Promise<{ status: number; body: string; output: string }> {
  const child = spawn(process.execPath, [path.join(DIST, script)], { cwd, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: cwd }, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) return { status: 0, body: "", output };
    const res = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined);
    if (res) return { status: res.status, body: await res.text(), output };
    await new Promise((r) => setTimeout(r, 100));
  }
  return { status: 0, body: "", output };
}

describe("credentials kept only in .env", () => {
  it("npm start reads them before crewbot reads the environment, and serves crewbot", async () => {
    const port = await freePort();
    const cwd = await operatorDir({ PORT: String(port), HOST: "127.0.0.1" });
    const health = await healthOf("main.js", cwd, port);
    expect(health.status, health.output).toBe(200);
    expect(JSON.parse(health.body)).toMatchObject({ status: "ok" });
  }, 30_000);

  it("npm run worker reads them too", async () => {
    const port = await freePort();
    const cwd = await operatorDir({ CREWBOT_WORKER_PORT: String(port) });
    const health = await healthOf("worker.js", cwd, port);
    expect(health.status, health.output).toBe(200);
    expect(JSON.parse(health.body)).toMatchObject({ status: "ok" });
  }, 30_000);
});
