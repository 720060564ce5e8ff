/**
 * Reads a published npm tarball in memory with node-tar's parser: nothing is written to disk and
 * nothing of it runs. Paths lose their first component (`package/`), as npm strips it. An entry
 * whose path is absolute or has a `..` segment, and any symbolic or hard link, is refused — npm
 * would drop or refuse them too, so one in a published tarball is deliberate. Kept: package.json,
 * every file path, the text of code files (capped each), the root binding.gyp and `.node` files.
 *
 * A tarball is a stranger's bytes, so the reading runs under budgets (`TARBALL_LIMITS`): entries,
 * bytes of paths and header records, unpacked bytes, code text kept, wall time. It is gunzipped by
 * zlib's thread pool and parsed a piece at a time, the event loop turning between pieces, so no
 * tarball holds the process for long; a budget spent ends the reading with a reason naming it.
 */
import { setImmediate as nextTurn } from "node:timers/promises";
import { createGunzip } from "node:zlib";
import { Parser, type ReadEntry } from "tar";
import { sizeText as size } from "../text/sizes.js";
import type { DependencyFact } from "./types.js";

export interface PackageContents {
  /** The tarball's package.json ({} when it has none or it is not JSON). */
  packageJson: Record<string, unknown>;
  /** Every file, `package/` stripped, in tarball order. */
  files: string[];
  /** Path → text of each code file up to the per-file cap. */
  code: Map<string, string>;
  /** Code files over the per-file cap, not read. */
  unreadCode: string[];
  /** A `binding.gyp` at the package's root (npm then runs `node-gyp rebuild` on install). */
  bindingGyp: boolean;
  /** Compiled addons (`.node` files). */
  nativeFiles: string[];
}

export type TarballReading = { ok: true; contents: PackageContents } | { ok: false; fact: DependencyFact } | { ok: false; notInspected: string };

/**
 * The budgets one reading runs under. What a reading keeps is bounded by them (paths and records,
 * code text), and what the parser holds at once by one piece and one header record.
 */
export interface TarballLimits {
  /** Largest code file read, in bytes; a larger one is listed in `unreadCode`. */
  maxCodeFileBytes?: number;
  /** All code text kept (package.json included), in bytes. */
  maxCodeBytes?: number;
  /** The unpacked tar stream: headers, header records and data, in bytes. */
  maxUnpackedBytes?: number;
  /** Entries of every kind, header records included. */
  maxEntries?: number;
  /** Paths, link targets and header records (PAX, GNU long names) together, in bytes. */
  maxHeaderBytes?: number;
  /** One header record, in bytes (node-tar's `maxMetaEntrySize`). */
  maxHeaderRecordBytes?: number;
  /** Wall time of the whole reading, in ms. */
  maxMillis?: number;
  /** Unpacked bytes parsed between two turns of the event loop. */
  pieceBytes?: number;
  /** Ends the reading early: it then rejects with the signal's reason. */
  signal?: AbortSignal;
}

const KB = 1024;
const MB = 1024 * KB;

export const TARBALL_LIMITS: Required<Omit<TarballLimits, "signal">> = {
  maxCodeFileBytes: 2 * MB,
  maxCodeBytes: 32 * MB,
  maxUnpackedBytes: 100 * MB,
  maxEntries: 100_000,
  maxHeaderBytes: 8 * MB,
  maxHeaderRecordBytes: 64 * KB,
  maxMillis: 20_000,
  pieceBytes: 64 * KB,
};

const CODE_EXTENSIONS = new Set([".js", ".cjs", ".mjs", ".ts", ".cts", ".mts", ".jsx", ".tsx"]);
const DECLARATION_ENDINGS = [".d.ts", ".d.cts", ".d.mts"];

/** Code the comparison reads: JavaScript and TypeScript sources, not type declarations. */
export const isCodeFile = (file: string) => CODE_EXTENSIONS.has(file.slice(file.lastIndexOf("."))) && !DECLARATION_ENDINGS.some((ending) => file.endsWith(ending));

const count = (n: number) => n.toLocaleString("en");
const duration = (ms: number) => (ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`);

interface Refused {
  /** "a symbolic link `package/l` → `../x`" */
  words: string;
  file: string;
}

/** Why an entry is refused, or undefined when it is an ordinary file or folder. */
function refusal(entry: ReadEntry): Refused | undefined {
  const raw = entry.path.replaceAll("\\", "/");
  if (entry.type === "SymbolicLink" || entry.type === "Link") {
    return { words: `a ${entry.type === "Link" ? "hard" : "symbolic"} link \`${raw}\` → \`${entry.linkpath ?? ""}\``, file: raw };
  }
  if (raw.startsWith("/") || /^[A-Za-z]:/.test(raw)) return { words: `an absolute path \`${raw}\``, file: raw };
  if (raw.split("/").includes("..")) return { words: `a path out of the package folder \`${raw}\``, file: raw };
  return undefined;
}

const stripFirst = (raw: string) =>
  raw
    .replaceAll("\\", "/")
    .split("/")
    .slice(1)
    .filter((part) => part !== "" && part !== ".")
    .join("/");

function parsePackageJson(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function unsafeFact(refused: Refused[], more: number): DependencyFact {
  const others = refused.length - 1 + more;
  const tail = others > 0 ? ` (and ${others} more such entr${others > 1 ? "ies" : "y"})` : "";
  return { kind: "unsafe-entry", severity: "critical", text: `its tarball has ${refused[0]!.words}${tail}; npm refuses such entries, so it is not inspected`, files: refused.slice(0, 3).map((r) => r.file) };
}

/** The counters of one reading against its budgets; `spent` names the first budget exceeded. */
class Budget {
  entries = 0;
  headerBytes = 0;
  unpackedBytes = 0;
  codeBytes = 0;
  spent: string | undefined;
  private readonly started = performance.now();
  constructor(readonly limits: Required<Omit<TarballLimits, "signal">>) {}

  spend(reason: string): void {
    this.spent ??= reason;
  }

  /** One header (entry or record) with `bytes` of paths or record text. */
  header(bytes: number): void {
    if (++this.entries > this.limits.maxEntries) this.spend(`its tarball has over ${count(this.limits.maxEntries)} entries`);
    if ((this.headerBytes += bytes) > this.limits.maxHeaderBytes) this.spend(`its tarball's paths and header records take over ${size(this.limits.maxHeaderBytes)}`);
  }

  piece(bytes: number): void {
    if ((this.unpackedBytes += bytes) > this.limits.maxUnpackedBytes) this.spend(`its tarball unpacks to over ${size(this.limits.maxUnpackedBytes)}`);
    if (performance.now() - this.started > this.limits.maxMillis) this.spend(`reading its tarball took over ${duration(this.limits.maxMillis)}`);
  }

  /** Whether `bytes` more of text may be kept. */
  keep(bytes: number): boolean {
    if ((this.codeBytes += bytes) <= this.limits.maxCodeBytes) return true;
    this.spend(`its code files take over ${size(this.limits.maxCodeBytes)}`);
    return false;
  }
}

/** What the entries say, as the parser hands them over. */
class Collector {
  readonly contents: PackageContents = { packageJson: {}, files: [], code: new Map(), unreadCode: [], bindingGyp: false, nativeFiles: [] };
  readonly refused: Refused[] = [];
  /** Refused entries past the first few, only counted. */
  moreRefused = 0;
  constructor(private readonly budget: Budget) {}

  entry(entry: ReadEntry): void {
    const { budget } = this;
    budget.header(entry.path.length + (entry.linkpath?.length ?? 0));
    if (budget.spent) return void entry.resume();
    const why = refusal(entry);
    if (why) {
      if (this.refused.length < 3) this.refused.push(why);
      else this.moreRefused++;
      return void entry.resume();
    }
    const file = stripFirst(entry.path);
    const isFile = entry.type === "File" || entry.type === "OldFile" || entry.type === "ContiguousFile";
    if (!isFile || file === "") return void entry.resume();
    const { contents } = this;
    contents.files.push(file);
    if (file === "binding.gyp") contents.bindingGyp = true;
    if (file.endsWith(".node")) contents.nativeFiles.push(file);
    const maxFile = budget.limits.maxCodeFileBytes;
    if (file === "package.json" && entry.size <= maxFile && budget.keep(entry.size)) return readText(entry, (text) => (contents.packageJson = parsePackageJson(text)));
    if (!isCodeFile(file)) return void entry.resume();
    if (entry.size > maxFile) return void (contents.unreadCode.push(file), entry.resume());
    if (!budget.keep(entry.size)) return void entry.resume();
    readText(entry, (text) => contents.code.set(file, text));
  }
}

function readText(entry: ReadEntry, into: (text: string) => void): void {
  const chunks: Buffer[] = [];
  entry.on("data", (chunk: Buffer) => chunks.push(chunk));
  entry.on("end", () => into(Buffer.concat(chunks).toString("utf8")));
}

const isGzip = (bytes: Buffer) => bytes[0] === 0x1f && bytes[1] === 0x8b;

/** The unpacked tar stream in pieces of at most `pieceBytes`: gunzipped in zlib's thread pool. */
async function* unpackedPieces(bytes: Buffer, pieceBytes: number): AsyncGenerator<Buffer> {
  if (!isGzip(bytes)) {
    for (let at = 0; at < bytes.length; at += pieceBytes) yield bytes.subarray(at, at + pieceBytes);
    return;
  }
  const gunzip = createGunzip({ chunkSize: pieceBytes });
  gunzip.end(bytes);
  yield* gunzip as AsyncIterable<Buffer>;
}

/** Feeds the pieces to the parser, a turn of the event loop between two, until done or a budget is spent. */
async function parse(bytes: Buffer, parser: Parser, budget: Budget, signal: AbortSignal | undefined): Promise<string | undefined> {
  const ended = new Promise<string | undefined>((resolve) => {
    parser.on("error", (error: Error) => resolve(error.message));
    parser.on("end", () => resolve(undefined));
  });
  let first = true;
  try {
    for await (const piece of unpackedPieces(bytes, budget.limits.pieceBytes)) {
      signal?.throwIfAborted();
      // node-tar would gunzip an inner archive itself, in one synchronous call: not a tarball npm writes.
      if (first && isGzip(piece)) return "compressed twice";
      first = false;
      budget.piece(piece.length);
      if (budget.spent) return undefined;
      parser.write(piece);
      if (budget.spent) return undefined;
      await nextTurn();
    }
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    return (error as Error).message;
  }
  signal?.throwIfAborted();
  parser.end();
  return ended;
}

/**
 * Reads the tarball's entries under `limits` (defaults: `TARBALL_LIMITS`); refuses unsafe ones;
 * says which budget was spent, or why it is unreadable. Rejects only when `limits.signal` aborts.
 */
export async function readTarball(bytes: Buffer, limits: TarballLimits = {}): Promise<TarballReading> {
  const { signal, ...given } = limits;
  const budget = new Budget({ ...TARBALL_LIMITS, ...given });
  const collector = new Collector(budget);
  let warning: string | undefined;
  const parser = new Parser({
    maxMetaEntrySize: budget.limits.maxHeaderRecordBytes,
    zstd: false,
    onwarn: (code, message) => void (warning ??= `${code}: ${message}`),
    onReadEntry: (entry: ReadEntry) => collector.entry(entry),
  });
  parser.on("meta", (text: string) => budget.header(text.length));
  parser.on("ignoredEntry", (entry: ReadEntry) => {
    budget.header(0);
    if (entry.meta) budget.spend(`its tarball has a header record over ${size(budget.limits.maxHeaderRecordBytes)}`);
  });
  const failure = await parse(bytes, parser, budget, signal);
  if (collector.refused.length > 0) return { ok: false, fact: unsafeFact(collector.refused, collector.moreRefused) };
  if (budget.spent) return { ok: false, notInspected: budget.spent };
  if (failure !== undefined || (collector.contents.files.length === 0 && warning)) return { ok: false, notInspected: `its tarball could not be read (${failure ?? warning})` };
  return { ok: true, contents: collector.contents };
}
