import { mkdir, stat } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openTranscripts, transcriptDays } from "../../src/transcripts/index.js";
import { SqliteTranscriptStore } from "../../src/store/sqlite/transcripts.js";
import { tempDataDir } from "../queue/helpers.js";

const DAY = 86_400_000;

describe("transcript retention", () => {
  it.each([
    [{}, 30],
    [{ CREWBOT_RETENTION_DAYS: "7" }, 7],
    [{ CREWBOT_RETENTION_DAYS: "7", CREWBOT_TRANSCRIPT_DAYS: "3" }, 3],
  ])("keeps transcripts as long as %j says: %d days", (env, days) => {
    expect(transcriptDays(env)).toBe(days);
  });

  it("with autoPrune off, nothing is pruned until the sweep calls prune", async () => {
    const dataDir = await tempDataDir();
    const store = new SqliteTranscriptStore({ dataDir });
    await store.append("old-job", [{ type: "job_end", terminal: "done", outcome: "✅ Done", at: Date.now() - 40 * DAY }]);
    await mkdir(path.join(dataDir, "jobs", "old-job", "artifacts"), { recursive: true });
    const transcripts = openTranscripts({ env: {}, dataDir, secrets: [], store, autoPrune: false });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await store.read("old-job")).toHaveLength(1);
    expect(await transcripts.prune()).toBe(1);
    expect(await store.read("old-job")).toEqual([]);
    await expect(stat(path.join(dataDir, "jobs", "old-job", "artifacts"))).rejects.toThrow();
    await transcripts.close();
  });
});
