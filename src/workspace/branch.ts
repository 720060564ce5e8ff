/** Names of the branches `/implement` creates: `crewbot/issue-<n>-<slug>`. */
import { BRANCH_PREFIX, listRemoteBranches, type RemoteOptions } from "./push.js";

export const SLUG_MAX_LENGTH = 40;
/** The slug of a title with nothing usable in it (only symbols, emoji, non-Latin script). */
export const SLUG_FALLBACK = "issue";

/** Latin letters that do not decompose into ASCII ones. */
const LATIN: Record<string, string> = { ß: "ss", æ: "ae", œ: "oe", ø: "o", đ: "d", ł: "l", þ: "th" };

/**
 * A branch-name slug of an issue title: lower-case ASCII `[a-z0-9-]+`, at most 40 characters.
 * Accents are dropped (`Café` → `cafe`, `straße` → `strasse`), compatibility forms folded (`ﬁ`, full-width letters),
 * every other run of characters becomes one `-`; a long slug is cut at a `-` when that keeps
 * at least half of it. An empty result is `issue`.
 */
export function slugify(title: string, maxLength = SLUG_MAX_LENGTH): string {
  const ascii = title
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[ßæœøđłþ]/g, (c) => LATIN[c] ?? "");
  let slug = ascii.replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
  if (slug.length > maxLength) {
    const whole = slug[maxLength] === "-"; // the cut falls between two words already
    slug = slug.slice(0, maxLength);
    const cut = slug.lastIndexOf("-");
    if (!whole && cut >= maxLength / 2) slug = slug.slice(0, cut);
    slug = slug.replace(/-+$/, "");
  }
  return slug || SLUG_FALLBACK;
}

/** `crewbot/issue-<n>-<slug>`. */
export function issueBranchName(issue: number, title: string): string {
  if (!Number.isSafeInteger(issue) || issue < 1) throw new Error(`invalid issue number ${issue}`);
  return `${BRANCH_PREFIX}issue-${issue}-${slugify(title)}`;
}

/** Whether a ref named `name` could be created next to `existing` (equal, or one a directory of the other). */
function clashes(name: string, existing: string): boolean {
  return existing === name || existing.startsWith(`${name}/`) || name.startsWith(`${existing}/`);
}

/** `base`, or `base-2`, `base-3`, … : the first that clashes with none of `taken`. */
export function firstFreeName(base: string, taken: Iterable<string>, maxTries = 1000): string {
  const names = [...taken];
  for (let i = 1; i <= maxTries; i++) {
    const candidate = i === 1 ? base : `${base}-${i}`;
    if (!names.some((existing) => clashes(candidate, existing))) return candidate;
  }
  throw new Error(`no free branch name for ${base} after ${maxTries} tries`);
}

export interface UniqueBranchOptions extends RemoteOptions {
  issue: number;
  title: string;
}

/** The branch for a new `/implement` on an issue, not yet on the remote (asked with `ls-remote`). */
export async function uniqueIssueBranch(options: UniqueBranchOptions): Promise<string> {
  const base = issueBranchName(options.issue, options.title);
  return firstFreeName(base, await listRemoteBranches(options));
}
