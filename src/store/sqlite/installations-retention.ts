/**
 * Retention of the embedded installation tables (`job_usage`, `installations` in `crewbot.db`):
 * usage rows go once no operator limit counts them (the monthly budget counts the current month),
 * and installations deleted from GitHub go after the retention period. The Redis ledger trims its
 * own usage as it records.
 */
import { openDatabase } from "./database.js";
import type { RetentionTarget } from "../retention.js";
import { monthStart } from "../../installations/limits.js";

/** Opens the file for each sweep and closes it again: an hourly job needs no standing connection. */
export function sqliteInstallationsTargets(dataDir: string): RetentionTarget[] {
  const run = <T>(work: (db: ReturnType<typeof openDatabase>["db"]) => T): T => {
    const { db } = openDatabase({ dataDir });
    try {
      return work(db);
    } finally {
      db.close();
    }
  };
  return [
    {
      name: "usage rows",
      prune: async (before, now) =>
        run((db) => db.prepare("DELETE FROM job_usage WHERE started_at < ?").run(Math.min(before, monthStart(now))).changes),
    },
    {
      name: "deleted installations",
      prune: async (before) =>
        run((db) => db.prepare("DELETE FROM installations WHERE state = 'deleted' AND updated_at < ?").run(before).changes),
    },
  ];
}
