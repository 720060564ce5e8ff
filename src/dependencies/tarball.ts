/**
 * Reads a published npm tarball in memory with node-tar's parser: nothing is written to disk and
 * nothing of it runs. Paths lose their first component (`package/`), as npm strips it. An entry
 * whose path is absolute or has a `..` segment, and any symbolic or hard link, is refused — npm
 * would drop or refuse them too, so one in a published tarball is deliberate. Kept: package.json,
 * every file path, the text of code files (capped each), the root binding.gyp and `.node` files.
 */
import { Parser, type ReadEntry } from "tar";
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

export interface TarballLimits {
  /** Largest code file read, in bytes (2 MB). */
  maxCodeFileBytes?: number;
  /** Largest total of all entries, in bytes (100 MB); beyond it the package is not inspected. */
  maxUnpackedBytes?: number;
}

/** Code the comparison reads: JavaScript and TypeScript sources, not type declarations. */
export const isCodeFile = (file: string) => /\.(?:[cm]?js|[cm]?ts|jsx|tsx)$/.test(file) && !/\.d\.[cm]?ts$/.test(file);

const MB = 1024 * 1024;
const size = (bytes: number) => (bytes >= MB ? `${Math.round(bytes / MB)} MB` : `${Math.round(bytes / 1024)} KB`);

/** Why an entry is refused, or undefined when it is an ordinary file or folder. */
function refusal(entry: ReadEntry): string | undefined {
  const raw = entry.path.replace(/\\/g, "/");
  if (entry.type === "SymbolicLink" || entry.type === "Link") {
    return `a ${entry.type === "Link" ? "hard" : "symbolic"} link \`${raw}\` → \`${entry.linkpath ?? ""}\``;
  }
  if (raw.startsWith("/") || /^[A-Za-z]:/.test(raw)) return `an absolute path \`${raw}\``;
  if (raw.split("/").includes("..")) return `a path out of the package folder \`${raw}\``;
  return undefined;
}

const stripFirst = (raw: string) => raw.replace(/\\/g, "/").split("/").slice(1).filter((part) => part !== "" && part !== ".").join("/");

function read(entry: ReadEntry, into: (text: string) => void): void {
  const chunks: Buffer[] = [];
  entry.on("data", (chunk: Buffer) => chunks.push(chunk));
  entry.on("end", () => into(Buffer.concat(chunks).toString("utf8")));
}

function parsePackageJson(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function unsafeFact(refused: string[]): DependencyFact {
  const more = refused.length > 1 ? ` (and ${refused.length - 1} more such entr${refused.length > 2 ? "ies" : "y"})` : "";
  return { kind: "unsafe-entry", severity: "critical", text: `its tarball has ${refused[0]}${more}; npm refuses such entries, so it is not inspected`, files: refused.slice(0, 3).map((r) => /`([^`]*)`/.exec(r)?.[1] ?? r) };
}

/** Reads the tarball's entries; refuses unsafe ones; says when it is too large or unreadable. */
export async function readTarball(bytes: Buffer, limits: TarballLimits = {}): Promise<TarballReading> {
  const maxCode = limits.maxCodeFileBytes ?? 2 * MB;
  const maxTotal = limits.maxUnpackedBytes ?? 100 * MB;
  const contents: PackageContents = { packageJson: {}, files: [], code: new Map(), unreadCode: [], bindingGyp: false, nativeFiles: [] };
  const refused: string[] = [];
  let total = 0;
  let tooLarge = false;
  let warning: string | undefined;
  const parser = new Parser({
    onwarn: (code, message) => void (warning ??= `${code}: ${message}`),
    onReadEntry: (entry: ReadEntry) => {
      const why = refusal(entry);
      const file = stripFirst(entry.path);
      total += entry.size;
      if (total > maxTotal && !tooLarge) {
        tooLarge = true;
        parser.abort(new Error("over the unpacked size cap"));
      }
      if (why) refused.push(why);
      const isFile = entry.type === "File" || entry.type === "OldFile" || entry.type === "ContiguousFile";
      if (why || !isFile || file === "" || tooLarge) return void entry.resume();
      contents.files.push(file);
      if (file === "binding.gyp") contents.bindingGyp = true;
      if (file.endsWith(".node")) contents.nativeFiles.push(file);
      if (file === "package.json" && entry.size <= maxCode) return read(entry, (text) => (contents.packageJson = parsePackageJson(text)));
      if (!isCodeFile(file)) return void entry.resume();
      if (entry.size > maxCode) return void (contents.unreadCode.push(file), entry.resume());
      read(entry, (text) => contents.code.set(file, text));
    },
  });
  const failure = await new Promise<string | undefined>((resolve) => {
    parser.on("error", (error: Error) => resolve(error.message));
    parser.on("end", () => resolve(undefined));
    parser.end(bytes);
  });
  if (refused.length > 0) return { ok: false, fact: unsafeFact(refused) };
  if (tooLarge) return { ok: false, notInspected: `its tarball unpacks to over ${size(maxTotal)}` };
  if (failure !== undefined || (contents.files.length === 0 && warning)) return { ok: false, notInspected: `its tarball could not be read (${failure ?? warning})` };
  return { ok: true, contents };
}
