/**
 * A real Redis for the Redis queue's tests: `REDIS_URL` when set, else a `redis-server` of our own on a
 * free port, with no persistence, in a temporary directory; stopped (and the directory removed) after.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { Redis } from "ioredis";

export interface RedisServer {
  url: string;
  stop(): Promise<void>;
}

const REDIS_SERVER = process.env.REDIS_SERVER_BIN ?? "redis-server";

export async function startRedis(): Promise<RedisServer> {
  if (process.env.REDIS_URL) return { url: process.env.REDIS_URL, stop: async () => {} };
  let lastError: unknown;
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      return await startOnce();
    } catch (err) {
      lastError = err; // most likely another process took the port between our probe and redis-server
    }
  }
  throw lastError;
}

async function startOnce(): Promise<RedisServer> {
  const port = await freePort();
  const dir = await mkdtemp(path.join(os.tmpdir(), "crewbot-redis-"));
  const args = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir];
  const child = spawn(REDIS_SERVER, args, { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
    await rm(dir, { recursive: true, force: true });
  };
  const url = `redis://127.0.0.1:${port}`;
  try {
    await waitUntilUp(url, child);
  } catch (err) {
    await stop();
    throw new Error(`redis-server did not start: ${(err as Error).message}\n${output}`);
  }
  return { url, stop };
}

async function waitUntilUp(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}`);
    const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on("error", () => {});
    try {
      await probe.connect();
      if ((await probe.ping()) === "PONG") return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
    } finally {
      probe.disconnect();
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
