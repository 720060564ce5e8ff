/**
 * `installation` and `installation_repositories` events → what crewbot records and which queued
 * jobs can no longer run. Pure: the handler stores the record and cancels the jobs.
 */
import { sameRepository, type InstallationRecord, type RepositoryRef } from "./types.js";

export interface InstallationPayload {
  action: string;
  installation: { id: number; account: { login: string } | null; repository_selection?: "all" | "selected" };
  repositories?: PayloadRepository[];
  repositories_added?: PayloadRepository[];
  repositories_removed?: PayloadRepository[];
  repository_selection?: "all" | "selected";
  sender: { login: string };
}

/** How installation events list repositories (GitHub sends `id`, `name`, `full_name`, `private`). */
export interface PayloadRepository {
  full_name: string;
  id?: number;
}

export interface InstallationChange {
  record: InstallationRecord;
  /** Queued jobs to cancel: all of the installation's, or those of these repositories (`owner/name`). */
  cancel?: { all: true } | { repositories: string[] };
  /** One line for the log. */
  summary: string;
}

/**
 * Whether `repositories` lists every selected repository: only when crewbot saw the installation
 * made (`installation.created` sets `installedBy` and the full list) and followed it since.
 */
export const listComplete = (record: InstallationRecord) => record.installedBy !== undefined;

const refs = (list?: PayloadRepository[]): RepositoryRef[] =>
  (list ?? []).map((r) => (typeof r.id === "number" ? { fullName: r.full_name, id: r.id } : { fullName: r.full_name }));
/** Each repository once — the later entry wins, so a re-added repository carries its current name — sorted by name. */
const unique = (list: RepositoryRef[]) =>
  list.filter((r, i) => !list.slice(i + 1).some((later) => sameRepository(r, later))).sort((a, b) => a.fullName.localeCompare(b.fullName));
const without = (list: RepositoryRef[], gone: RepositoryRef[]) => list.filter((r) => !gone.some((g) => sameRepository(r, g)));

/** The new record (from the stored one, if any) and what to cancel; undefined for actions that change nothing. */
export function installationChange(event: "installation" | "installation_repositories", payload: InstallationPayload, before: InstallationRecord | undefined, now = Date.now()): InstallationChange | undefined {
  const { installation } = payload;
  const base: InstallationRecord = before ?? {
    id: installation.id,
    account: installation.account?.login ?? "unknown",
    state: "active",
    repositories: [],
    allRepositories: installation.repository_selection === "all",
    updatedAt: now,
  };
  const record = { ...base, account: installation.account?.login ?? base.account, updatedAt: now };
  const who = `@${payload.sender.login}`;

  if (event === "installation_repositories") {
    const added = refs(payload.repositories_added);
    const removed = refs(payload.repositories_removed);
    record.allRepositories = (payload.repository_selection ?? installation.repository_selection) === "all";
    record.repositories = record.allRepositories ? [] : unique(without([...record.repositories, ...added], removed));
    // Without the installation's creation the list is partial: removals are remembered apart.
    const stillRemoved = record.allRepositories || listComplete(record) ? [] : without(unique([...(record.removedRepositories ?? []), ...removed]), added);
    if (stillRemoved.length > 0) record.removedRepositories = stillRemoved;
    else delete record.removedRepositories;
    const summary = `${who} changed the repositories of installation ${installation.id}: +${added.length} −${removed.length}`;
    return { record, summary, ...(removed.length > 0 ? { cancel: { repositories: removed.map((r) => r.fullName) } } : {}) };
  }
  switch (payload.action) {
    case "created": {
      const { removedRepositories: _stale, ...fresh } = record;
      return {
        record: {
          ...fresh,
          state: "active",
          installedBy: payload.sender.login,
          allRepositories: installation.repository_selection === "all",
          // With "all repositories" the list would only go stale: every repository is covered.
          repositories: installation.repository_selection === "all" ? [] : unique(refs(payload.repositories)),
        },
        summary: `${who} installed crewbot on ${record.account} (installation ${installation.id})`,
      };
    }
    case "deleted":
      return { record: { ...record, state: "deleted" }, cancel: { all: true }, summary: `${who} uninstalled crewbot from ${record.account} (installation ${installation.id})` };
    case "suspend":
      return { record: { ...record, state: "suspended" }, cancel: { all: true }, summary: `${who} suspended installation ${installation.id}` };
    case "unsuspend":
      return { record: { ...record, state: "active" }, summary: `${who} unsuspended installation ${installation.id}` };
    default:
      return undefined;
  }
}
