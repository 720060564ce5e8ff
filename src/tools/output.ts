import { randomBytes } from "node:crypto";
import { createWriteStream, type WriteStream } from "node:fs";
import path from "node:path";
import { finished } from "node:stream/promises";

/** Most any one tool result may carry back to the model. */
export const OUTPUT_CAP_BYTES = 50 * 1024;
/** Longest single line shown; minified files would otherwise eat the whole budget. */
export const MAX_LINE_CHARS = 2000;
/** A runaway command (`yes`) must not fill the disk: the artifact stops growing here. */
export const ARTIFACT_MAX_BYTES = 256 * 1024 * 1024;

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(n < 10 * 1024 ? 1 : 0)} KB`;
  if (n < 1024 ** 3) return `${(n / (1024 * 1024)).toFixed(1)} MB`;
  return `${(n / 1024 ** 3).toFixed(1)} GB`;
}

/** Cuts a line to `max` characters and says so, with the full length. */
export function truncateLine(line: string, max = MAX_LINE_CHARS): string {
  if (line.length <= max) return line;
  return `${line.slice(0, max)}… [line truncated: ${line.length} chars]`;
}

/** Collects lines until a count or byte budget is hit, then only counts what it drops. */
export class LineCapper {
  readonly lines: string[] = [];
  private bytes = 0;
  omitted = 0;
  /** Why the cap was hit first: "lines" or "bytes"; undefined while nothing was dropped. */
  hit: "lines" | "bytes" | undefined;

  constructor(
    private readonly maxLines: number,
    private readonly maxBytes = OUTPUT_CAP_BYTES,
  ) {}

  /** Returns false when the line was dropped. */
  add(line: string): boolean {
    const size = Buffer.byteLength(line) + 1;
    if (this.hit === undefined && this.lines.length >= this.maxLines) this.hit = "lines";
    if (this.hit === undefined && this.bytes + size > this.maxBytes) this.hit = "bytes";
    if (this.hit !== undefined) {
      this.omitted++;
      return false;
    }
    this.lines.push(line);
    this.bytes += size;
    return true;
  }

  get full(): boolean {
    return this.hit !== undefined;
  }

  text(): string {
    return this.lines.join("\n");
  }
}

/** The last `max` bytes, starting on a UTF-8 character boundary. */
export function tailOf(buf: Buffer, max: number): Buffer {
  if (buf.length <= max) return buf;
  let start = buf.length - max;
  while (start < buf.length && ((buf[start] ?? 0) & 0xc0) === 0x80) start++;
  return buf.subarray(start);
}

/** A fresh file name in the artifacts dir: nothing is overwritten and names do not collide across calls. */
export function artifactPath(dir: string, prefix: string): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  return path.join(dir, `${prefix}-${stamp}-${randomBytes(4).toString("hex")}.log`);
}

export interface CollectedOutput {
  /** The last OUTPUT_CAP_BYTES of the output (all of it when smaller). */
  tail: string;
  totalBytes: number;
  /** Set when the output was larger than the cap: where all of it was saved. */
  artifact?: string;
  /** Set when even the artifact had to stop (ARTIFACT_MAX_BYTES). */
  artifactTruncated?: boolean;
  artifactError?: string;
}

/**
 * Keeps the tail of a stream in memory; once the stream outgrows the cap, everything
 * (held chunks first) streams to an artifact file so the model can page through it with `read`.
 */
export class OutputCollector {
  private held: Buffer[] = [];
  private heldBytes = 0;
  private total = 0;
  private file: WriteStream | undefined;
  private fileBytes = 0;
  private artifact: string | undefined;
  private artifactTruncated = false;
  private artifactError: string | undefined;

  constructor(
    private readonly artifactsDir: string,
    private readonly prefix: string,
    private readonly cap = OUTPUT_CAP_BYTES,
    private readonly artifactMax = ARTIFACT_MAX_BYTES,
  ) {}

  push(chunk: Buffer): void {
    this.total += chunk.length;
    if (this.artifact === undefined && this.total > this.cap) this.openArtifact();
    this.toFile(chunk);
    this.held.push(chunk);
    this.heldBytes += chunk.length;
    // Drop whole chunks from the front while the rest still covers the cap.
    while (this.held.length > 1 && this.heldBytes - (this.held[0]?.length ?? 0) >= this.cap) {
      this.heldBytes -= this.held.shift()?.length ?? 0;
    }
  }

  private openArtifact(): void {
    this.artifact = artifactPath(this.artifactsDir, this.prefix);
    try {
      // The caller creates artifactsDir; a failure here is reported in the result, not thrown.
      this.file = createWriteStream(this.artifact, { flags: "wx", mode: 0o600 });
      this.file.on("error", (err) => {
        this.artifactError = err.message;
      });
    } catch (err) {
      this.artifactError = (err as Error).message;
      return;
    }
    for (const c of this.held) this.toFile(c);
  }

  private toFile(chunk: Buffer): void {
    if (this.file === undefined || this.artifactTruncated) return;
    const room = this.artifactMax - this.fileBytes;
    if (chunk.length > room) {
      this.artifactTruncated = true;
      if (room > 0) this.file.write(chunk.subarray(0, room));
      this.fileBytes = this.artifactMax;
      return;
    }
    this.file.write(chunk);
    this.fileBytes += chunk.length;
  }

  async finish(): Promise<CollectedOutput> {
    const file = this.file;
    if (file !== undefined) {
      file.end();
      // finished() also settles for a stream that already failed (an 'error' listener added now would not).
      await finished(file).catch((err: Error) => {
        this.artifactError ??= err.message;
      });
    }
    const tail = tailOf(Buffer.concat(this.held), this.cap).toString("utf8");
    const out: CollectedOutput = { tail, totalBytes: this.total };
    if (this.artifact !== undefined) {
      if (this.artifactError !== undefined) out.artifactError = this.artifactError;
      else out.artifact = this.artifact;
      if (this.artifactTruncated) out.artifactTruncated = true;
    }
    return out;
  }
}
