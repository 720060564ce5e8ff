/** What crewbot keeps about installations: who installed it and where, and what its jobs used. */

export type InstallationState = "active" | "suspended" | "deleted";

/**
 * A repository as installation events name it. Its id stays the same through a rename or a
 * transfer; the name is the one it had then (records written before ids were kept have none).
 */
export interface RepositoryRef {
  fullName: string;
  id?: number;
}

/** Pure: the same repository — by id when both have one, else by name (GitHub's names are case-insensitive). */
export function sameRepository(a: RepositoryRef, b: RepositoryRef): boolean {
  if (a.id !== undefined && b.id !== undefined) return a.id === b.id;
  return a.fullName.toLowerCase() === b.fullName.toLowerCase();
}

export interface InstallationRecord {
  id: number;
  /** The user or organisation the app is installed on. */
  account: string;
  /** Who installed it (the `installation.created` sender). */
  installedBy?: string;
  state: InstallationState;
  /** The selected repositories; empty with `allRepositories`. */
  repositories: RepositoryRef[];
  allRepositories: boolean;
  /**
   * Repositories taken out of the installation (`installation_repositories.removed`) and not
   * added back: the triggers refuse commands there from this local record, asking GitHub nothing.
   * Kept apart from `repositories`, which is only complete when crewbot saw the installation made.
   */
  removedRepositories?: RepositoryRef[];
  updatedAt: number;
}

export interface InstallationStore {
  get(id: number): Promise<InstallationRecord | undefined>;
  put(record: InstallationRecord): Promise<void>;
  close(): Promise<void>;
}

/**
 * Each job's start and cost per installation and per repository (`owner/repo`, lower-cased), for
 * the operator's limits and the repositories' monthly caps; shared by every process on one store.
 */
export interface UsageLedger {
  /** A job of the installation (in `repo`) started now (counted against the jobs-per-hour limit). */
  recordStart(installationId: number, jobId: string, at: number, repo?: string): Promise<void>;
  /** What the job cost in all (counted against the monthly caps). */
  recordCost(installationId: number, jobId: string, usd: number, repo?: string): Promise<void>;
  jobsSince(installationId: number, since: number): Promise<number>;
  /** The cost of the installation's jobs started since `since`; with `repo`, of that repository's only. */
  costSince(installationId: number, since: number, repo?: string): Promise<number>;
  close(): Promise<void>;
}

/** A repository's key in the ledger: `owner/repo`, lower-cased (GitHub's names are case-insensitive). */
export const usageRepoKey = (owner: string, repo: string): string => `${owner}/${repo}`.toLowerCase();
