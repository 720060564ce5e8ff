import examples from "@octokit/webhooks-examples";
import { afterEach, describe, expect, it } from "vitest";
import { applyInstallationEvent } from "../../src/installations/apply.js";
import type { InstallationPayload } from "../../src/installations/events.js";
import type { InstallationRecord, InstallationStore } from "../../src/installations/types.js";
import { JobRunner } from "../../src/queue/runner.js";
import type { SqliteQueue } from "../../src/store/sqlite/job-queue.js";
import type { JobRecord } from "../../src/queue/types.js";
import { LIMITS, newJob, Queues, tempDataDir } from "../queue/helpers.js";

type Json = Record<string, any>;

function example(event: "installation" | "installation_repositories", action: string): InstallationPayload & Json {
  const group = (examples as unknown as Array<{ name: string; examples: Json[] }>).find((g) => g.name === event);
  const found = group?.examples.find((e) => e.action === action);
  if (!found) throw new Error(`no ${event}.${action} example`);
  return structuredClone(found) as InstallationPayload & Json;
}

/** An installation event of installation `id`, sent by `sender`. */
function event(kind: "installation" | "installation_repositories", action: string, id: number, o: { sender?: string; removed?: string[]; added?: string[] } = {}) {
  const payload = example(kind, action);
  payload.installation.id = id;
  payload.installation.account = { login: "Octo" };
  payload.sender.login = o.sender ?? "octo-admin";
  if (o.removed) payload.repositories_removed = o.removed.map((full_name) => ({ full_name }));
  if (o.added) payload.repositories_added = o.added.map((full_name) => ({ full_name }));
  return payload;
}

class MemoryInstallations implements InstallationStore {
  readonly records = new Map<number, InstallationRecord>();
  readonly puts: InstallationRecord[] = [];
  async get(id: number) {
    const r = this.records.get(id);
    return r && structuredClone(r);
  }
  async put(record: InstallationRecord) {
    this.puts.push(structuredClone(record));
    this.records.set(record.id, structuredClone(record));
  }
  async close() {}
}

const queues = new Queues();
afterEach(() => queues.closeAll());

async function setUp() {
  const queue = queues.open(await tempDataDir());
  // Never started: cancel works on the queue alone.
  const runner = new JobRunner({ queue, handler: async () => ({ state: "succeeded", outcome: "✅ Done" }), leaseMs: 1000, heartbeatMs: 100 });
  const installations = new MemoryInstallations();
  const logged: Array<{ obj: object; msg?: string }> = [];
  const deps = { installations, queue, runner, log: { info: (obj: object, msg?: string) => void logged.push({ obj, msg }) } };
  return { queue, runner, installations, logged, deps };
}

async function enqueue(queue: SqliteQueue, opts: Parameters<typeof newJob>[0]): Promise<JobRecord> {
  const result = await queue.enqueue(newJob(opts));
  return (await queue.get(result.job.id))!;
}

const stateOf = async (queue: SqliteQueue, job: JobRecord) => (await queue.get(job.id))!.state;

describe("applyInstallationEvent", () => {
  it("cancels every queued job of an uninstalled installation and none of another's", async () => {
    const { queue, installations, logged, deps } = await setUp();
    const mine = [
      await enqueue(queue, { inst: 1, number: 1 }),
      await enqueue(queue, { inst: 1, number: 1 }), // a second job waiting on the same issue
      await enqueue(queue, { inst: 1, number: 2 }),
      await enqueue(queue, { inst: 1, repo: "Other", number: 3 }),
    ];
    const theirs = [await enqueue(queue, { inst: 2, number: 1 }), await enqueue(queue, { inst: 3, number: 2 })];

    const cancelled = await applyInstallationEvent("installation", event("installation", "deleted", 1, { sender: "uninstaller" }), deps);

    expect(cancelled).toBe(4);
    for (const job of mine) {
      expect(await queue.get(job.id)).toMatchObject({ state: "cancelled", outcome: "⏹ Cancelled by @uninstaller" });
    }
    for (const job of theirs) expect(await stateOf(queue, job)).toBe("queued");
    expect(installations.records.get(1)).toMatchObject({ id: 1, account: "Octo", state: "deleted" });
    expect(logged).toEqual([{ obj: { installationId: 1, cancelled: 4 }, msg: "@uninstaller uninstalled crewbot from Octo (installation 1)" }]);
  });

  it("cancels the queued jobs of a suspended installation too", async () => {
    const { queue, installations, deps } = await setUp();
    const job = await enqueue(queue, { inst: 1 });
    const other = await enqueue(queue, { inst: 2 });
    expect(await applyInstallationEvent("installation", event("installation", "suspend", 1), deps)).toBe(1);
    expect(await stateOf(queue, job)).toBe("cancelled");
    expect(await stateOf(queue, other)).toBe("queued");
    expect(installations.records.get(1)?.state).toBe("suspended");
  });

  it("leaves jobs that already ended as they were, and counts only what it cancelled", async () => {
    const { queue, deps } = await setUp();
    const done = await enqueue(queue, { inst: 1, number: 5 });
    const claimed = (await queue.claim("w", LIMITS))!;
    expect(claimed.id).toBe(done.id);
    await queue.finish(done.id, "succeeded", "✅ Done", { workerId: "w", attempt: claimed.attempts });
    const waiting = await enqueue(queue, { inst: 1, number: 6 });

    expect(await applyInstallationEvent("installation", event("installation", "deleted", 1), deps)).toBe(1);
    expect(await queue.get(done.id)).toMatchObject({ state: "succeeded", outcome: "✅ Done" });
    expect(await stateOf(queue, waiting)).toBe("cancelled");
  });

  it("cancels only the removed repository's queued jobs, whatever the case of its name", async () => {
    const { queue, installations, deps } = await setUp();
    await installations.put({ id: 1, account: "Octo", installedBy: "octo-admin", state: "active", repositories: [{ fullName: "Octo/Hello" }, { fullName: "Octo/Other" }], allRepositories: false, updatedAt: 1 });
    const removed = [await enqueue(queue, { inst: 1, repo: "Hello", number: 1 }), await enqueue(queue, { inst: 1, repo: "Hello", number: 2 })];
    const kept = [
      await enqueue(queue, { inst: 1, repo: "Other", number: 1 }),
      await enqueue(queue, { inst: 1, repo: "Hello-World", number: 1 }),
      // Another installation's repository of the same name is not this installation's.
      await enqueue(queue, { inst: 2, repo: "Hello", number: 9 }),
    ];

    const cancelled = await applyInstallationEvent("installation_repositories", event("installation_repositories", "removed", 1, { removed: ["octo/HELLO"] }), deps);

    expect(cancelled).toBe(2);
    for (const job of removed) expect(await stateOf(queue, job)).toBe("cancelled");
    for (const job of kept) expect(await stateOf(queue, job)).toBe("queued");
    expect(installations.records.get(1)).toMatchObject({ state: "active", installedBy: "octo-admin" });
  });

  it("records the stored repositories without the removed ones", async () => {
    const { installations, deps } = await setUp();
    await installations.put({ id: 1, account: "Octo", state: "active", repositories: [{ fullName: "Octo/Hello" }, { fullName: "Octo/Other" }], allRepositories: false, updatedAt: 1 });
    expect(await applyInstallationEvent("installation_repositories", event("installation_repositories", "removed", 1, { removed: ["Octo/Hello"] }), deps)).toBe(0);
    expect(installations.records.get(1)?.repositories).toEqual([{ fullName: "Octo/Other" }]);
  });

  it("cancels nothing when repositories are added, an installation is created, or it is unsuspended", async () => {
    const { queue, installations, deps } = await setUp();
    const job = await enqueue(queue, { inst: 1 });
    expect(await applyInstallationEvent("installation_repositories", event("installation_repositories", "added", 1, { added: ["Octo/New"] }), deps)).toBe(0);
    expect(await applyInstallationEvent("installation", event("installation", "created", 1), deps)).toBe(0);
    expect(await applyInstallationEvent("installation", event("installation", "unsuspend", 1), deps)).toBe(0);
    expect(await stateOf(queue, job)).toBe("queued");
    expect(installations.puts.map((r) => r.state)).toEqual(["active", "active", "active"]);
    expect(installations.records.get(1)?.installedBy).toBe("octo-admin");
  });

  it("records nothing and cancels nothing for an action that changes nothing", async () => {
    const { queue, installations, logged, deps } = await setUp();
    const job = await enqueue(queue, { inst: 1 });
    expect(await applyInstallationEvent("installation", event("installation", "new_permissions_accepted", 1), deps)).toBe(0);
    expect(installations.puts).toEqual([]);
    expect(logged).toEqual([]);
    expect(await stateOf(queue, job)).toBe("queued");
  });

  it("goes through the runner's cancel, once per target, as the sender", async () => {
    const { queue, installations, deps } = await setUp();
    const a = await enqueue(queue, { inst: 1, number: 1 });
    await enqueue(queue, { inst: 1, number: 1 });
    await enqueue(queue, { inst: 1, number: 2 });
    const calls: Array<[string, string | undefined]> = [];
    const runner = {
      cancel: async (key: string, by?: string) => {
        calls.push([key, by]);
        return queue.requestCancel(key, by);
      },
    };
    const cancelled = await applyInstallationEvent("installation", event("installation", "deleted", 1, { sender: "bye" }), { ...deps, installations, runner });
    expect(cancelled).toBe(3);
    expect(calls.sort()).toEqual([
      ["octo/hello#1", "bye"],
      ["octo/hello#2", "bye"],
    ]);
    expect(await stateOf(queue, a)).toBe("cancelled");
  });
});
