/**
 * Verified tarballs, cached on disk under the hash the registry gives for them:
 * `<cacheDir>/<sha512 hex>.tgz`. The key is always the registry's hash of that name@version, never
 * a lockfile's, so a pull request cannot choose which cached file is read. A cached file is
 * re-verified against its own name on every read and removed only when its bytes do not hash to
 * it (it is corrupt); a fetched tarball is kept only after it matched, written to a temporary file
 * and renamed so a reader never sees half. Tarballs the registry gives no sha512 for (very old
 * publishes, sha1 only) are verified but not cached: a sha1 is not a name worth trusting later.
 */
import { randomBytes } from "node:crypto";
import { mkdir, open, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { hashMatches, hexOf, type IntegrityHash } from "./integrity.js";

export type VerifiedTarball = { ok: true; bytes: Buffer; cached: boolean } | { ok: false; mismatch: true };

export interface TarballRequest {
  /** The registry's one hash of the tarball: what the bytes must match, and (sha512) the cache key. */
  hash: IntegrityHash;
  fetch(): Promise<Buffer>;
  /** Told the size of a cached file before it is read; throws to refuse reading it (a spent budget). */
  admit?(bytes: number): void;
  /** Told when the verified bytes could not be written to the cache (the review goes on without it). */
  onCacheError?(error: Error): void;
}

const fileOf = (cacheDir: string, hash: IntegrityHash) => path.join(cacheDir, `${hexOf(hash)}.tgz`);

async function cached(file: string, hash: IntegrityHash, admit: TarballRequest["admit"]): Promise<Buffer | undefined> {
  let bytes: Buffer;
  try {
    const handle = await open(file, "r");
    try {
      admit?.((await handle.stat()).size);
      bytes = await handle.readFile();
    } finally {
      await handle.close();
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  if (hashMatches(bytes, hash)) return bytes;
  await rm(file, { force: true }); // corrupt: its bytes are not what its name says
  return undefined;
}

async function store(file: string, bytes: Buffer): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    await writeFile(temporary, bytes);
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** The tarball's bytes once they match the registry's hash: from the cache, else fetched (and then cached). */
export async function verifiedTarball(cacheDir: string, request: TarballRequest): Promise<VerifiedTarball> {
  const file = request.hash.algorithm === "sha512" ? fileOf(cacheDir, request.hash) : undefined;
  const hit = file && (await cached(file, request.hash, request.admit));
  if (hit) return { ok: true, bytes: hit, cached: true };
  const bytes = await request.fetch();
  if (!hashMatches(bytes, request.hash)) return { ok: false, mismatch: true };
  if (file) await store(file, bytes).catch((error: Error) => request.onCacheError?.(error));
  return { ok: true, bytes, cached: false };
}
