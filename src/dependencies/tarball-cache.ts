/**
 * Verified tarballs, cached on disk by integrity: `<cacheDir>/<sha512 hex>.tgz`. A cached file is
 * re-verified on every read (a corrupted one is deleted and fetched again); a fetched one is kept
 * only after it matched, written to a temporary file and renamed so a reader never sees half.
 */
import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { matchesIntegrity, sha512Hex, sha512HexOf } from "./integrity.js";

export type VerifiedTarball = { ok: true; bytes: Buffer; cached: boolean } | { ok: false; mismatch: true };

export interface TarballRequest {
  /** The integrity the bytes must match (the lockfile's, else the registry document's). */
  integrity: string;
  /** Another SRI of the same tarball whose sha512 may name the cached file (the document's, when the lockfile has only sha1). */
  alsoKnownAs?: string;
  fetch(): Promise<Buffer>;
  /** Told when the verified bytes could not be written to the cache (the review goes on without it). */
  onCacheError?(error: Error): void;
}

async function cached(cacheDir: string, hex: string, integrity: string): Promise<Buffer | undefined> {
  const file = path.join(cacheDir, `${hex}.tgz`);
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch {
    return undefined;
  }
  if (matchesIntegrity(bytes, integrity)) return bytes;
  await rm(file, { force: true });
  return undefined;
}

async function store(cacheDir: string, bytes: Buffer): Promise<void> {
  await mkdir(cacheDir, { recursive: true });
  const file = path.join(cacheDir, `${sha512HexOf(bytes)}.tgz`);
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    await writeFile(temporary, bytes);
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** The tarball's bytes once they match `integrity`: from the cache, else fetched (and then cached). */
export async function verifiedTarball(cacheDir: string, request: TarballRequest): Promise<VerifiedTarball> {
  const keys = [sha512Hex(request.integrity), request.alsoKnownAs && sha512Hex(request.alsoKnownAs)].filter((k): k is string => !!k);
  for (const hex of new Set(keys)) {
    const bytes = await cached(cacheDir, hex, request.integrity);
    if (bytes) return { ok: true, bytes, cached: true };
  }
  const bytes = await request.fetch();
  if (!matchesIntegrity(bytes, request.integrity)) return { ok: false, mismatch: true };
  await store(cacheDir, bytes).catch((error: Error) => request.onCacheError?.(error));
  return { ok: true, bytes, cached: false };
}
