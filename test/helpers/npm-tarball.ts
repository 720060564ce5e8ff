/**
 * npm tarballs built in memory for tests: a plain ustar writer, so a test can put exactly the
 * entries it wants in the bytes — including the ones node-tar's own packer would sanitise away
 * (`package/../evil.js`, an absolute path, a symlink, a hard link).
 */
import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";

export type TarEntry =
  | { type: "file"; path: string; body: string | Buffer; mode?: number }
  | { type: "directory"; path: string }
  | { type: "symlink" | "hardlink"; path: string; target: string }
  /** A PAX extended header (`x`): its `key=value` records apply to the next entry (`path` renames it). */
  | { type: "pax"; records: Record<string, string> }
  /** A GNU long-name record (`L`): its text is the next entry's path. */
  | { type: "gnu-long-path"; path: string };

const TYPE_FLAG = { file: "0", hardlink: "1", symlink: "2", directory: "5", pax: "x", "gnu-long-path": "L" } as const;

/** One PAX record, `"<length> <key>=<value>\n"`, its length counting its own digits. */
function paxRecord(key: string, value: string): string {
  const rest = ` ${key}=${value}\n`;
  let length = Buffer.byteLength(rest) + 1;
  while (String(length).length + Buffer.byteLength(rest) !== length) length = String(length).length + Buffer.byteLength(rest);
  return `${length}${rest}`;
}

/** A meta entry's header name and body; other entries have no body but a file's. */
function bodyOf(entry: TarEntry): { path: string; body: Buffer } {
  if (entry.type === "pax") return { path: "PaxHeader", body: Buffer.from(Object.entries(entry.records).map(([k, v]) => paxRecord(k, v)).join("")) };
  if (entry.type === "gnu-long-path") return { path: "././@LongLink", body: Buffer.from(`${entry.path}\0`) };
  return { path: entry.path, body: entry.type === "file" ? Buffer.from(entry.body) : Buffer.alloc(0) };
}

function writeString(header: Buffer, value: string, offset: number, length: number): void {
  const bytes = Buffer.from(value, "utf8");
  if (bytes.length > length) throw new Error(`tar header field too long: ${value}`);
  bytes.copy(header, offset);
}

const octal = (value: number, length: number) => value.toString(8).padStart(length - 1, "0") + "\0";

/** ustar splits a long name into `prefix/name` (prefix ≤ 155 bytes, name ≤ 100). */
function splitName(path: string): { name: string; prefix: string } {
  if (Buffer.byteLength(path) <= 100) return { name: path, prefix: "" };
  const cut = path.lastIndexOf("/", 155);
  if (cut <= 0 || Buffer.byteLength(path.slice(cut + 1)) > 100) throw new Error(`tar path too long for ustar: ${path}`);
  return { name: path.slice(cut + 1), prefix: path.slice(0, cut) };
}

function header(entry: TarEntry, path: string, size: number): Buffer {
  const block = Buffer.alloc(512);
  const { name, prefix } = splitName(path);
  writeString(block, name, 0, 100);
  writeString(block, octal(entry.type === "directory" ? 0o755 : entry.type === "file" ? (entry.mode ?? 0o644) : entry.type === "symlink" || entry.type === "hardlink" ? 0o777 : 0o644, 8), 100, 8);
  writeString(block, octal(0, 8), 108, 8);
  writeString(block, octal(0, 8), 116, 8);
  writeString(block, octal(size, 12), 124, 12);
  writeString(block, octal(499162500, 12), 136, 12); // npm's fixed mtime (1985-10-26)
  block.fill(" ", 148, 156);
  block.write(TYPE_FLAG[entry.type], 156, "latin1");
  if (entry.type === "symlink" || entry.type === "hardlink") writeString(block, entry.target, 157, 100);
  writeString(block, "ustar\u0000", 257, 6);
  writeString(block, "00", 263, 2);
  writeString(block, prefix, 345, 155);
  let sum = 0;
  for (const byte of block) sum += byte;
  writeString(block, sum.toString(8).padStart(6, "0") + "\0 ", 148, 8);
  return block;
}

/** A gzipped tar of exactly these entries, in this order. */
export function tarOf(entries: readonly TarEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    const { path, body } = bodyOf(entry);
    parts.push(header(entry, path, body.length), body);
    const pad = (512 - (body.length % 512)) % 512;
    if (pad > 0) parts.push(Buffer.alloc(pad));
  }
  parts.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(parts));
}

/** `{ "index.js": "…" }` → a tarball as npm publishes it: every file under `package/`. */
export function packageTarball(files: Record<string, string | Buffer>, extra: readonly TarEntry[] = []): Buffer {
  const entries: TarEntry[] = Object.entries(files).map(([path, body]) => ({ type: "file", path: `package/${path}`, body }));
  return tarOf([...entries, ...extra]);
}

/** The SRI string npm writes into lockfiles (`sha512-<base64>`). */
export const sha512Integrity = (bytes: Buffer) => `sha512-${createHash("sha512").update(bytes).digest("base64")}`;
export const sha1Integrity = (bytes: Buffer) => `sha1-${createHash("sha1").update(bytes).digest("base64")}`;
export const sha1Hex = (bytes: Buffer) => createHash("sha1").update(bytes).digest("hex");
