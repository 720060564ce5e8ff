/**
 * The keyed-document primitive, the same contract on SQLite and Redis: concurrent updates of one
 * document from several connections lose none, a change that stores nothing writes nothing, and a
 * change that throws leaves the document and the connection as they were.
 */
import path from "node:path";
import Database from "better-sqlite3";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import type { KeyedDocuments } from "../../src/store/keyed-documents.js";
import { RedisDocuments } from "../../src/store/redis/redis-documents.js";
import { SqliteDocuments } from "../../src/store/sqlite/sqlite-documents.js";
import { redisPrefixFor, tempDataDir } from "../queue/helpers.js";
import { startRedis } from "../queue/redis-server.js";

const server = await startRedis();
afterAll(() => server.stop());

interface Counter {
  n: number;
  by: string[];
}

/** Opens `connections` handles on one place; `close` closes them all. */
type Open = (place: string, connections: number) => { docs: Array<KeyedDocuments<string, Counter>>; close(): Promise<void> };

const sqlite: Open = (dir, connections) => {
  const dbs = Array.from({ length: connections }, () => {
    const db = new Database(path.join(dir, "docs.db"));
    db.pragma("journal_mode = WAL");
    db.pragma("busy_timeout = 5000");
    db.exec("CREATE TABLE IF NOT EXISTS docs (k TEXT PRIMARY KEY, v TEXT NOT NULL)");
    return db;
  });
  return {
    docs: dbs.map(
      (db) =>
        new SqliteDocuments<string, Counter>(db, {
          read: (k) => {
            const row = db.prepare("SELECT v FROM docs WHERE k = ?").get(k) as { v: string } | undefined;
            return row && (JSON.parse(row.v) as Counter);
          },
          write: (k, doc) => void db.prepare("INSERT INTO docs (k, v) VALUES (?, ?) ON CONFLICT (k) DO UPDATE SET v = excluded.v").run(k, JSON.stringify(doc)),
        }),
    ),
    close: async () => dbs.forEach((db) => db.close()),
  };
};

const redis: Open = (dir, connections) => {
  const prefix = redisPrefixFor(dir);
  const clients = Array.from({ length: connections }, () => new Redis(server.url));
  return {
    docs: clients.map(
      (client) =>
        new RedisDocuments<string, Counter>(
          client,
          {
            watched: (k) => [`${prefix}:${k}`],
            read: async (r, k) => {
              const v = await r.get(`${prefix}:${k}`);
              return v === null ? undefined : (JSON.parse(v) as Counter);
            },
            write: (tx, k, doc) => void tx.set(`${prefix}:${k}`, JSON.stringify(doc)),
          },
          (k) => k,
        ),
    ),
    close: async () => void (await Promise.all(clients.map((c) => c.quit()))),
  };
};

const bump = (who: string) => (was: Counter | undefined) => {
  const next = { n: (was?.n ?? 0) + 1, by: [...(was?.by ?? []), who] };
  return { next, answer: next.n };
};

describe.each([
  ["SqliteDocuments", sqlite],
  ["RedisDocuments", redis],
])("%s", (_name, open) => {
  it("loses no update when several connections update one document at once", async () => {
    const { docs, close } = open(await tempDataDir(), 3);
    const writes = docs.flatMap((d, c) => Array.from({ length: 15 }, (_, i) => d.update("counter", bump(`${c}.${i}`))));
    const answers = await Promise.all(writes);
    const final = await docs[0]!.read("counter");
    expect(final?.n).toBe(45);
    expect(new Set(final?.by).size).toBe(45);
    // Each update saw its own document: the answers are 1..45, each once.
    expect([...answers].sort((a, b) => a - b)).toEqual(Array.from({ length: 45 }, (_, i) => i + 1));
    await close();
  });

  it("writes nothing when a change stores nothing, and answers all the same", async () => {
    const { docs, close } = open(await tempDataDir(), 1);
    const d = docs[0]!;
    expect(await d.update("absent", () => ({ answer: "left" }))).toBe("left");
    expect(await d.read("absent")).toBeUndefined();
    await d.update("one", bump("a"));
    expect(await d.update("one", (was) => ({ answer: was?.n }))).toBe(1);
    expect(await d.read("one")).toEqual({ n: 1, by: ["a"] });
    await close();
  });

  it("leaves the document and the connection as they were when a change throws", async () => {
    const { docs, close } = open(await tempDataDir(), 1);
    const d = docs[0]!;
    await d.update("doc", bump("a"));
    await expect(
      d.update("doc", () => {
        throw new Error("no");
      }),
    ).rejects.toThrow("no");
    expect(await d.update("doc", bump("b"))).toBe(2);
    expect(await d.read("doc")).toEqual({ n: 2, by: ["a", "b"] });
    await close();
  });
});
