import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { DB_FILE, MIGRATIONS, SCHEMA_VERSION } from "../../src/store/sqlite/database.js";
import { SqliteInstallations } from "../../src/store/sqlite/installations.js";
import { SqliteReviewStore } from "../../src/store/sqlite/review-store.js";
import { LIMITS, Queues, newJob, tempDataDir } from "../queue/helpers.js";

const queues = new Queues();
afterEach(() => queues.closeAll());

/** A file as the first crewbot release left it: schema version 1, a queued and a running job. */
function createVersion1(dir: string): void {
  const db = new Database(path.join(dir, DB_FILE));
  db.exec(MIGRATIONS[0]!);
  db.pragma("user_version = 1");
  const insert = db.prepare(
    `INSERT INTO jobs (id, delivery_id, kind, state, target_key, installation_id, target_json, trigger_json,
       repo_json, extra_json, attempts, created_at, started_at, worker_id, lease_ms, lease_expires_at)
     VALUES (@id, @id, 'plan', @state, 'octo/hello#1', 1, @target, @trigger, @repo, @extra, @attempts, @createdAt,
       @startedAt, @worker, @leaseMs, @lease)`,
  );
  const job = newJob();
  const common = {
    target: JSON.stringify(job.target),
    trigger: JSON.stringify(job.trigger),
    repo: JSON.stringify(job.repo),
    extra: JSON.stringify({ subject: { title: "T", body: "B", author: "carol" } }),
  };
  insert.run({ ...common, id: "old-running", state: "running", attempts: 1, createdAt: 100, startedAt: 150, worker: "w", leaseMs: 60_000, lease: 60_150 });
  insert.run({ ...common, id: "old-queued", state: "queued", attempts: 0, createdAt: 200, startedAt: null, worker: null, leaseMs: null, lease: null });
  db.close();
}

describe("schema migration", () => {
  it("upgrades a version-1 file in place: old jobs keep working, the new columns and table exist", async () => {
    expect(SCHEMA_VERSION).toBe(10);
    const dir = await tempDataDir();
    createVersion1(dir);
    let now = 1_000;
    const q = queues.open(dir, () => now);
    const raw = new Database(path.join(dir, DB_FILE), { readonly: true });
    expect(raw.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
    raw.close();

    // Old jobs read back with runAt = createdAt and their extra fields.
    expect(await q.get("old-queued")).toMatchObject({ state: "queued", runAt: 200, subject: { title: "T" } });
    expect((await q.get("old-queued"))?.group).toBeUndefined();
    // The old running job is still held by its worker and ends as before.
    expect(await q.heartbeat("old-running", { workerId: "w", attempt: 1 })).toEqual({ held: true, cancelRequested: false });
    expect(await q.claim("w2", LIMITS)).toBeUndefined(); // the target is busy
    await q.finish("old-running", "succeeded", "✅ Done", { workerId: "w", attempt: 1 });
    expect(await q.claim("w2", LIMITS)).toMatchObject({ id: "old-queued", attempts: 1 });

    // New features work on the upgraded file.
    const { job } = await q.enqueue({ ...newJob({ number: 2 }), runAt: 5_000, group: "review" });
    expect(await q.nextRunAt()).toBe(5_000);
    const { superseded } = await q.enqueue({ ...newJob({ number: 2 }), group: "review", supersede: true });
    expect(superseded.map((j) => j.id)).toEqual([job.id]);
    now = 2_000;
    const store = new SqliteReviewStore({ dataDir: dir });
    await store.record("octo/hello", 2, "abc", ["f1"]);
    expect((await store.get("octo/hello", 2))?.fingerprints).toEqual(["f1"]);
    await store.close();
  });

  it("a review state written at schema 4 loads after the upgrade, with no findings, and takes new ones", async () => {
    const dir = await tempDataDir();
    const db = new Database(path.join(dir, DB_FILE));
    for (const sql of MIGRATIONS.slice(0, 4)) db.exec(sql);
    db.pragma("user_version = 4");
    db.prepare("INSERT INTO review_state (repo_key, number, head_sha, fingerprints_json, reviewed_at) VALUES ('octo/hello', 3, 'old', '[\"f0\"]', 10)").run();
    db.close();
    const store = new SqliteReviewStore({ dataDir: dir });
    expect(await store.get("octo/hello", 3)).toEqual({ headSha: "old", fingerprints: ["f0"], findings: [], reviewedAt: 10 });
    const found = { fingerprint: "f1", severity: "warning" as const, path: "a.ts", line: 2, title: "t", commit: "new" };
    await store.record("octo/hello", 3, "new", ["f1"], { posted: [found] });
    expect(await store.get("octo/hello", 3)).toMatchObject({ headSha: "new", fingerprints: ["f0", "f1"], findings: [found] });
    await store.close();
  });

  it("usage recorded at schema 8 counts for its installation after the upgrade, and for no repository", async () => {
    const dir = await tempDataDir();
    const db = new Database(path.join(dir, DB_FILE));
    for (const sql of MIGRATIONS.slice(0, 8)) db.exec(sql);
    db.pragma("user_version = 8");
    db.prepare("INSERT INTO job_usage (job_id, installation_id, started_at, cost_usd) VALUES ('old-job', 1, 1000, 2.5)").run();
    db.close();
    const ledger = new SqliteInstallations({ dataDir: dir });
    await ledger.recordStart(1, "new-job", 2000, "octo/hello");
    await ledger.recordCost(1, "new-job", 1, "octo/hello");
    expect(await ledger.costSince(1, 0)).toBeCloseTo(3.5, 10);
    expect(await ledger.costSince(1, 0, "octo/hello")).toBeCloseTo(1, 10);
    await ledger.close();
  });

  it("either store may open a new file first, and the other finds the schema there", async () => {
    const dir = await tempDataDir();
    const store = new SqliteReviewStore({ dataDir: dir });
    const q = queues.open(dir);
    await store.record("octo/hello", 1, "abc", []);
    expect((await q.enqueue(newJob())).duplicate).toBe(false);
    expect(await store.get("octo/hello", 1)).toMatchObject({ headSha: "abc" });
    await store.close();
  });
});
