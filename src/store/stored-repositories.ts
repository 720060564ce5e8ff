import type { RepositoryRef } from "../installations/types.js";

/** A stored repository: `owner/name` as records before ids were kept hold it, or a RepositoryRef. */
export type StoredRepository = string | RepositoryRef;

/** Stored entries as RepositoryRefs: an old record's names stay matched by name. */
export function storedRefs(list: StoredRepository[] | undefined): RepositoryRef[] {
  return (list ?? []).map((r) => (typeof r === "string" ? { fullName: r } : r));
}
