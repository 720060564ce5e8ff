/**
 * A job's files as the transcript pages serve them: the top-level artifacts (full tool outputs) and
 * the `local://` scratch space its agents shared (`artifacts/local/…`). Every file is confined with
 * realpath to that job's folder, read as text and sent as text/plain, never as a page.
 */
import { lstat, open, readdir, realpath } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { isInside, LOCAL_PREFIX } from "../tools/paths.js";
import { isArtifactName } from "../transcripts/recorder.js";
import { esc } from "./html.js";

/** Artifacts are served up to this size (the start of a bigger one, said so). */
export const ARTIFACT_SERVE_MAX = 20 * 1024 * 1024;
/** The scratch space's folder under a job's artifacts (where the chain puts `local://`). */
export const SCRATCH_FOLDER = "local";
/** The transcript page lists at most this many scratch files (the space holds 16 MB of notes). */
const SCRATCH_LIST_MAX = 500;

const artifactsOf = (dataDir: string, jobId: string) => path.join(dataDir, "jobs", jobId, "artifacts");

/** One path segment of a scratch file as the URL gave it (decoded): a plain name, never a way up or across. */
function isScratchSegment(segment: string): boolean {
  return segment !== "" && segment !== "." && segment !== ".." && !/[\\/\0]/.test(segment);
}

/**
 * The real path of the file a URL under `/jobs/<id>/artifacts/` names, or undefined (→ 404): a
 * top-level artifact, or `local/<path…>` of the scratch space. Refused: `..` and other odd segments,
 * anything whose realpath (symlinks resolved) leaves the folder, and anything that is not a file.
 */
export async function artifactFile(dataDir: string, jobId: string, segments: string[]): Promise<string | undefined> {
  const [first, ...rest] = segments;
  const scratch = first === SCRATCH_FOLDER && rest.length > 0;
  if (scratch ? !rest.every(isScratchSegment) : segments.length !== 1 || !isArtifactName(first ?? "")) return undefined;
  try {
    const artifacts = await realpath(artifactsOf(dataDir, jobId));
    const dir = scratch ? await realpath(path.join(artifacts, SCRATCH_FOLDER)) : artifacts;
    if (!isInside(artifacts, dir)) return undefined;
    const file = await realpath(path.join(dir, ...(scratch ? rest : [first!])));
    if (scratch ? !isInside(dir, file) || file === dir : path.dirname(file) !== dir) return undefined;
    return (await lstat(file)).isFile() ? file : undefined;
  } catch {
    return undefined;
  }
}

/** Sends the file as plain text (redacted by `clean`), the start of it when it is over ARTIFACT_SERVE_MAX. */
export async function sendTextFile(req: IncomingMessage, res: ServerResponse, file: string, clean: (text: string) => string): Promise<void> {
  const handle = await open(file, "r");
  let text: string;
  let size: number;
  try {
    size = (await handle.stat()).size;
    const buf = Buffer.alloc(Math.min(size, ARTIFACT_SERVE_MAX));
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    text = buf.subarray(0, bytesRead).toString("utf8");
  } finally {
    await handle.close();
  }
  const body = clean(text) + (size > ARTIFACT_SERVE_MAX ? `\n[cut: the first ${ARTIFACT_SERVE_MAX} of ${size} bytes shown]\n` : "");
  res.writeHead(200, {
    "content-type": "text/plain; charset=utf-8",
    "cache-control": "private, no-store",
    "x-content-type-options": "nosniff",
    "content-security-policy": "default-src 'none'; sandbox",
  });
  res.end(req.method === "HEAD" ? undefined : body);
}

export interface ScratchFile {
  /** Relative to the scratch space, `/`-separated: `notes/api.md`. */
  name: string;
  bytes: number;
}

/** The job's scratch files (regular files only; symlinks are neither followed nor listed), sorted by name. */
export async function scratchFiles(dataDir: string, jobId: string): Promise<ScratchFile[]> {
  const dir = path.join(artifactsOf(dataDir, jobId), SCRATCH_FOLDER);
  const top = await lstat(dir).catch(() => undefined);
  if (!top?.isDirectory()) return [];
  const files: ScratchFile[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => [])) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    const bytes = (await lstat(full).catch(() => undefined))?.size ?? 0;
    files.push({ name: path.relative(dir, full).split(path.sep).join("/"), bytes });
  }
  return files.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Where the page links a scratch file: `<artifactBase>local/<each segment encoded>`. */
export function scratchHref(artifactBase: string, name: string): string {
  return `${artifactBase}${SCRATCH_FOLDER}/${name.split("/").map(encodeURIComponent).join("/")}`;
}

/**
 * The scratch file a tool call names in its summarised arguments (`scratch_write local://notes.md`,
 * `read local://notes.md:20`, `write local://a/b.md`), normalised; undefined when it names none or
 * one that would leave the space.
 */
export function scratchPathInArgs(tool: string, args: string): string | undefined {
  if (!["scratch_write", "write", "edit", "read"].includes(tool) || !args.startsWith(`${tool} ${LOCAL_PREFIX}`)) return undefined;
  let rest = args.slice(tool.length + 1 + LOCAL_PREFIX.length);
  if (rest.endsWith("…")) return undefined; // cut short in the summary: not the real name
  if (tool === "read") rest = rest.replace(/:\d+$/, "");
  const name = path.posix.normalize(rest);
  if (name === "." || name.startsWith("../") || name === ".." || path.posix.isAbsolute(name)) return undefined;
  return name.replace(/\/+$/, "");
}

/**
 * The transcript page's list of the job's scratch files, each a link; empty when the job left none.
 * A name that `clean` redacts is shown redacted and not linked: its link would carry the secret.
 */
export function renderScratchList(files: ScratchFile[], artifactBase: string, clean: (text: string) => string): string {
  if (files.length === 0) return "";
  const shown = files.slice(0, SCRATCH_LIST_MAX);
  const items = shown.map((f) => {
    const name = clean(f.name);
    const label = esc(LOCAL_PREFIX + name);
    const link = name === f.name ? `<a class="scratch" href="${esc(scratchHref(artifactBase, f.name))}">${label}</a>` : label;
    return `<li>${link} <span class="muted">${esc(f.bytes)} B</span></li>`;
  });
  const more = files.length > shown.length ? `<li class="muted">and ${files.length - shown.length} more</li>` : "";
  return `<section id="scratch" class="card"><h2 style="font-size:1.05em;margin:0 0 .3em">Scratch space <span class="muted" style="font-weight:normal">· notes the agents shared, never committed</span></h2>
<ul>${items.join("")}${more}</ul></section>`;
}
