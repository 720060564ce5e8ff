/**
 * Subresource-integrity strings as npm writes them (`sha512-<base64>`, several hashes separated by
 * spaces): which hash to check and whether bytes match. As npm's ssri does, only the strongest
 * algorithm present counts, and any one of its hashes matching is enough.
 */
import { createHash } from "node:crypto";

const STRENGTH = ["sha1", "sha256", "sha384", "sha512"] as const;
type Algorithm = (typeof STRENGTH)[number];

export interface IntegrityHash {
  algorithm: Algorithm;
  /** Base64 digest. */
  digest: string;
}

/** The hashes of the strongest known algorithm in an SRI string (empty: none it can check). */
export function strongestHashes(integrity: string): IntegrityHash[] {
  const hashes = integrity
    .trim()
    .split(/\s+/)
    .map((part) => /^(sha1|sha256|sha384|sha512)-([A-Za-z0-9+/=]+)(?:\?.*)?$/.exec(part))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ algorithm: m[1] as Algorithm, digest: m[2]! }));
  const best = Math.max(-1, ...hashes.map((h) => STRENGTH.indexOf(h.algorithm)));
  return hashes.filter((h) => STRENGTH.indexOf(h.algorithm) === best);
}

/** Whether the bytes match the SRI string; false when it names no algorithm we can check. */
export function matchesIntegrity(bytes: Uint8Array, integrity: string): boolean {
  const hashes = strongestHashes(integrity);
  if (hashes.length === 0) return false;
  const actual = createHash(hashes[0]!.algorithm).update(bytes).digest("base64");
  return hashes.some((h) => h.digest === actual);
}

/** The hex sha512 an SRI string names, when it has one (the tarball cache's key). */
export function sha512Hex(integrity: string): string | undefined {
  const hash = strongestHashes(integrity).find((h) => h.algorithm === "sha512");
  return hash && Buffer.from(hash.digest, "base64").toString("hex");
}

export const sha512HexOf = (bytes: Uint8Array) => createHash("sha512").update(bytes).digest("hex");

/** The strongest algorithm's name, for a message ("sha512"). */
export const integrityAlgorithm = (integrity: string) => strongestHashes(integrity)[0]?.algorithm;
