/**
 * Does the installation still cover a repository? Read from crewbot's own record of installation
 * events (a local read, no request to GitHub), so a delivery that arrives after an uninstall, a
 * suspension or a repository's removal — late, redelivered or replayed — starts nothing there.
 */
import { listComplete } from "./events.js";
import { sameRepository, type InstallationRecord, type RepositoryRef } from "./types.js";

/**
 * Why the installation does not cover the repository; undefined when it does (or nothing is
 * recorded). Matched by the repository's id — the webhook's `repository.id` — so a repository
 * renamed or transferred since it was selected is still covered, and a new one that took an old
 * name is not; by name only for entries recorded without an id.
 */
export function coverageRefusal(record: InstallationRecord | undefined, repository: RepositoryRef): string | undefined {
  // No record: installed before crewbot kept them; GitHub's own checks still apply to every request.
  if (!record) return undefined;
  if (record.state !== "active") return `the installation is ${record.state}`;
  if (record.allRepositories) return undefined;
  const has = (list: RepositoryRef[] | undefined) => (list ?? []).some((r) => sameRepository(r, repository));
  // A complete list says which repositories are covered; a partial one only which were removed.
  if (listComplete(record) ? !has(record.repositories) : has(record.removedRepositories)) {
    return "the repository is not (or no longer) among the installation's repositories";
  }
  return undefined;
}
