/**
 * Tar bytes exactly as an attacker writes them: ustar headers, PAX extended headers (`x` records
 * whose `path` may be a megabyte long), entries of any type and declared size, and the end blocks
 * left out, cut or doubled. `test/helpers/npm-tarball.ts` makes well-formed tarballs; this makes
 * the others.
 */

export type RawEntry =
  /** A PAX extended header: its records apply to the next entry (`path`, `size`, `linkpath`, …). */
  | { kind: "pax"; records: Record<string, string> }
  | { kind: "entry"; type: "0" | "1" | "2" | "5" | "g" | "L" | "7"; path: string; body: Buffer; declaredSize?: number; link?: string };

const octal = (value: number, length: number) => value.toString(8).padStart(length - 1, "0").slice(-(length - 1)) + "\0";

/** A 512-byte ustar header; the name field takes the path's first 100 bytes (the rest goes in a PAX record). */
function header(type: string, path: string, size: number, link = ""): Buffer {
  const block = Buffer.alloc(512);
  block.write(path.slice(0, 100), 0, 100, "utf8");
  block.write(octal(0o644, 8), 100, "latin1");
  block.write(octal(0, 8), 108, "latin1");
  block.write(octal(0, 8), 116, "latin1");
  block.write(octal(size, 12), 124, "latin1");
  block.write(octal(499162500, 12), 136, "latin1");
  block.fill(" ", 148, 156);
  block.write(type, 156, "latin1");
  block.write(link.slice(0, 100), 157, 100, "utf8");
  block.write("ustar\u000000", 257, "latin1");
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, "latin1");
  return block;
}

/** `"<length> <key>=<value>\n"`, where the length counts itself. */
function paxRecord(key: string, value: string): string {
  const rest = ` ${key}=${value}\n`;
  let length = Buffer.byteLength(rest) + 1;
  while (String(length).length + Buffer.byteLength(rest) !== length) length = String(length).length + Buffer.byteLength(rest);
  return `${length}${rest}`;
}

const pad = (size: number) => Buffer.alloc((512 - (size % 512)) % 512);

/** The raw (ungzipped) tar of these entries, then the end: two zero blocks, or `end` others. */
export function rawTar(entries: readonly RawEntry[], end: "zeros" | "none" = "zeros"): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    if (entry.kind === "pax") {
      const body = Buffer.from(Object.entries(entry.records).map(([k, v]) => paxRecord(k, v)).join(""), "utf8");
      parts.push(header("x", "PaxHeader", body.length), body, pad(body.length));
      continue;
    }
    parts.push(header(entry.type, entry.path, entry.declaredSize ?? entry.body.length, entry.link), entry.body, pad(entry.body.length));
  }
  if (end === "zeros") parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}
