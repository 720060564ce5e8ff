/**
 * The dependency review's data: which npm packages a pull request changes (from its lockfile, or
 * its manifests), and what each new published version adds over the old, read from both tarballs.
 * Detection (lockfile-changes), fetching (registry), reading (tarball) and comparing (compare) are
 * separate steps; the review (review/dependency-section) only renders and places these facts.
 */
import type { Severity } from "../tools/submit-review.js";

/** One side of a change: the version and, from a lockfile, its `integrity` (SRI, e.g. `sha512-…`). */
export interface LockedVersion {
  version: string;
  integrity?: string;
  /**
   * Set when the lockfile resolves it outside a registry (`a git dependency`, `a local file`,
   * `a tarball URL`): such a version is not fetched. The `resolved` URL itself is never kept.
   */
  nonRegistry?: string;
}

/** One npm package whose version the pull request changes, adds or removes. */
export interface PackageChange {
  name: string;
  /** Where it sits: the lockfile's `packages` key (`node_modules/a/node_modules/b`), or the manifest's dependency name. */
  location: string;
  /** Absent: added by the pull request. */
  old?: LockedVersion;
  /** Absent: removed by the pull request. */
  new?: LockedVersion;
  /** A dependency a manifest of the repository names itself (root or a workspace), not only something it pulls in. */
  direct: boolean;
  /** The workspace folder whose manifest names it (`packages/web`), when not the root. */
  workspace?: string;
  /** Where a finding about it goes: the file (lockfile or manifest) and its line on the head. */
  file: string;
  line: number;
  /** Read from the lockfile, or (without one) from a manifest's range. */
  source: "lockfile" | "manifest";
}

/** What a fact says about the new version, in the words the review uses. */
export type DependencyFactKind =
  | "install-script"
  | "bin"
  | "native-addon"
  | "child-process"
  | "network"
  | "eval"
  | "obfuscation"
  | "new-dependency"
  | "licence"
  | "publisher"
  | "maintainer"
  | "deprecated"
  | "fresh-release"
  | "integrity-mismatch"
  /** An integrity string with more than one hash of its strongest algorithm: npm accepts any of them. */
  | "integrity-ambiguous"
  /** The tarball's own package.json names another package or version than the one it is published as. */
  | "manifest-mismatch"
  | "unsafe-entry";

export interface DependencyFact {
  kind: DependencyFactKind;
  /** null: worth telling, not a finding (a clean fact such as a new dependency the table shows). */
  severity: Severity | null;
  /** One plain sentence, e.g. "adds a `postinstall` script: `node setup.js`". */
  text: string;
  /** The package files it was seen in (at most a few), for the reviewer to look at. */
  files?: string[];
}

/** One changed package after inspection. */
export interface PackageReport {
  change: PackageChange;
  /** What the new version adds over the old (empty: nothing of note, a clean bump). */
  facts: DependencyFact[];
  /** Set when it was not inspected (over `maxPackages`, a removal, a fetch failure, a tarball over the size cap, the review's byte budget spent), with why. */
  notInspected?: string;
}

export interface DependencyReview {
  /** Every changed package, inspected or not, in the order of the lockfile/manifests. */
  packages: PackageReport[];
}

/** Where tarballs and package documents come from: the operator's registry, never the repository's. */
export interface RegistrySettings {
  /** `CREWBOT_NPM_REGISTRY`, default `https://registry.npmjs.org/`. */
  url: string;
  /** `CREWBOT_NPM_TOKEN`: sent as a bearer token to that registry only. */
  token?: string;
}
