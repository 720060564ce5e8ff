/**
 * Does the installation still cover a repository? Read from crewbot's own record of installation
 * events (a local read, no request to GitHub), so a delivery that arrives after an uninstall, a
 * suspension or a repository's removal — late, redelivered or replayed — starts nothing there.
 */
import { listComplete } from "./events.js";
import type { InstallationRecord } from "./types.js";

/** Why the installation does not cover `owner/name`; undefined when it does (or nothing is recorded). */
export function coverageRefusal(record: InstallationRecord | undefined, fullName: string): string | undefined {
  // No record: installed before crewbot kept them; GitHub's own checks still apply to every request.
  if (!record) return undefined;
  if (record.state !== "active") return `the installation is ${record.state}`;
  if (record.allRepositories) return undefined;
  const name = fullName.toLowerCase();
  const has = (list: string[] | undefined) => (list ?? []).some((r) => r.toLowerCase() === name);
  // A complete list says which repositories are covered; a partial one only which were removed.
  if (listComplete(record) ? !has(record.repositories) : has(record.removedRepositories)) {
    return "the repository is not (or no longer) among the installation's repositories";
  }
  return undefined;
}
