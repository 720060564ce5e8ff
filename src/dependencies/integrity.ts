/**
 * Subresource-integrity strings as npm writes them (`sha512-<base64>`, several hashes separated by
 * spaces). npm's ssri checks only the strongest algorithm present and accepts bytes that match
 * *any* of its hashes, so a string with two different hashes of that algorithm lets a lockfile
 * accept two tarballs: `soleHash` says which one hash a string pins, or that it pins more than one.
 */
import { createHash } from "node:crypto";

const STRENGTH = ["sha1", "sha256", "sha384", "sha512"] as const;
export type Algorithm = (typeof STRENGTH)[number];

export interface IntegrityHash {
  algorithm: Algorithm;
  /** Base64 digest. */
  digest: string;
}

/** What an SRI string pins: exactly one hash, several (ambiguous), or none this code can check. */
export type PinnedHash = { hash: IntegrityHash } | { ambiguous: { algorithm: Algorithm; count: number } } | { none: true };

/** Every hash of a known algorithm in an SRI string, in its order. */
export function parseHashes(integrity: string): IntegrityHash[] {
  return integrity
    .trim()
    .split(/\s+/)
    .map((part) => /^(sha1|sha256|sha384|sha512)-([A-Za-z0-9+/=]+)(?:\?.*)?$/.exec(part))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ algorithm: m[1] as Algorithm, digest: m[2]! }));
}

/** The distinct hashes of the strongest algorithm among `hashes` (empty: none). */
function strongestOf(hashes: readonly IntegrityHash[]): IntegrityHash[] {
  const best = Math.max(-1, ...hashes.map((h) => STRENGTH.indexOf(h.algorithm)));
  const strongest = hashes.filter((h) => STRENGTH.indexOf(h.algorithm) === best);
  return strongest.filter((h, i) => strongest.findIndex((other) => other.digest === h.digest) === i);
}

/** The one hash that hashes pin, as ssri would check them. */
export function soleHash(hashes: readonly IntegrityHash[]): PinnedHash {
  const strongest = strongestOf(hashes);
  if (strongest.length === 0) return { none: true };
  if (strongest.length > 1) return { ambiguous: { algorithm: strongest[0]!.algorithm, count: strongest.length } };
  return { hash: strongest[0]! };
}

/** The base64 digest of the bytes by one algorithm. */
export const digestOf = (algorithm: Algorithm, bytes: Uint8Array) => createHash(algorithm).update(bytes).digest("base64");

/** Whether the bytes hash to exactly this one hash. */
export const hashMatches = (bytes: Uint8Array, hash: IntegrityHash) => digestOf(hash.algorithm, bytes) === hash.digest;

/** The hashes a registry document's `dist` gives: its `integrity`'s, and its hex `shasum` as sha1. */
export function distHashes(dist: Record<string, unknown>): IntegrityHash[] {
  const hashes = typeof dist["integrity"] === "string" ? parseHashes(dist["integrity"]) : [];
  const shasum = dist["shasum"];
  if (typeof shasum === "string" && /^[0-9a-f]{40}$/i.test(shasum)) hashes.push({ algorithm: "sha1", digest: Buffer.from(shasum, "hex").toString("base64") });
  return hashes;
}

/**
 * How a lockfile's hash compares with what the registry gives: "differs" when the registry names
 * that algorithm with other digests only (pacote refuses that too), "agrees" when it names that
 * digest, "unknown" when it has no hash of that algorithm (then the bytes decide).
 */
export function comparedWith(lock: IntegrityHash, registry: readonly IntegrityHash[]): "agrees" | "differs" | "unknown" {
  const same = registry.filter((h) => h.algorithm === lock.algorithm);
  if (same.length === 0) return "unknown";
  return same.some((h) => h.digest === lock.digest) ? "agrees" : "differs";
}

/** The hex of a hash's digest (the tarball cache names files by the sha512's). */
export const hexOf = (hash: IntegrityHash) => Buffer.from(hash.digest, "base64").toString("hex");
