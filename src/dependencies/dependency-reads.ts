/**
 * The dependency files of one review, read under its budgets. A pull request chooses which files
 * change and what they hold (hundreds of paths can point at one large blob), so at most `maxFiles`
 * paths are read, `maxBytes` in all over both sides, each side at most `maxFileBytes`; the event
 * loop turns after every read, and the job's signal ends the reading. What was not read is named.
 */
import { setImmediate as nextTurn } from "node:timers/promises";
import { sizeText } from "../text/sizes.js";

/** A file of one commit; undefined: no such file there. Over `maxBytes` it is not read: FileTooLarge. */
export interface TreeReader {
  read(path: string, maxBytes: number): Promise<string | undefined>;
}

/** A file over the bytes a reader was allowed, with its size. */
export class FileTooLarge extends Error {
  override name = "FileTooLarge";
  constructor(readonly bytes: number) {
    super(`the file is ${bytes} bytes`);
  }
}

export interface DetectionLimits {
  /** Dependency files (paths) read per review. */
  maxFiles?: number;
  /** Bytes read in all, both sides of every file. */
  maxBytes?: number;
  /** Bytes of one side of one file: JSON.parse of it holds the event loop (~10 ms a MB). */
  maxFileBytes?: number;
  /** Changed packages kept per review; the others are counted in a problem. */
  maxChanges?: number;
  /** The job's signal: an abort ends the reading (it rejects with the signal's reason). */
  signal?: AbortSignal;
}

export const DETECTION_LIMITS: Required<Omit<DetectionLimits, "signal">> = {
  maxFiles: 100,
  maxBytes: 64 * 1024 * 1024,
  maxFileBytes: 16 * 1024 * 1024,
  maxChanges: 10_000,
};

/** Both sides of one file as read; `head` undefined: the pull request has no such file (deleted). */
export type FileSides = { head?: string; base?: string } | { problem: string };

export class DependencyReads {
  readonly limits: Required<Omit<DetectionLimits, "signal">>;
  private readonly signal: AbortSignal | undefined;
  private files = 0;
  private bytes = 0;
  /** Paths not read because the review's budget was spent. */
  private readonly skipped: string[] = [];

  constructor(
    private readonly base: TreeReader,
    private readonly head: TreeReader,
    limits: DetectionLimits = {},
  ) {
    const { signal, ...given } = limits;
    this.limits = { ...DETECTION_LIMITS, ...given };
    this.signal = signal;
  }

  /** The head's text of `file` and, when it has one, the base's; undefined when the budget is spent (the path is then named in `problem`). */
  async sides(file: string): Promise<FileSides | undefined> {
    this.signal?.throwIfAborted();
    if (this.files >= this.limits.maxFiles || this.bytes >= this.limits.maxBytes) return void this.skipped.push(file);
    this.files++;
    const head = await this.side(this.head, file, "head");
    if (!("text" in head)) return this.unread(head, file);
    if (head.text === undefined) return {};
    const base = await this.side(this.base, file, "base");
    if (!("text" in base)) return this.unread(base, file);
    return base.text === undefined ? { head: head.text } : { head: head.text, base: base.text };
  }

  private unread(side: { problem: string } | { skipped: true }, file: string): FileSides | undefined {
    if ("problem" in side) return side;
    this.skipped.push(file);
    return undefined;
  }

  /** One side's text (undefined: no such file), or why it was not read: too large, or the budget spent. */
  private async side(reader: TreeReader, file: string, side: "base" | "head"): Promise<{ text: string | undefined } | { problem: string } | { skipped: true }> {
    const room = Math.min(this.limits.maxFileBytes, this.limits.maxBytes - this.bytes);
    try {
      const text = await reader.read(file, room);
      if (text !== undefined && text.length > room) throw new FileTooLarge(text.length);
      this.bytes += text?.length ?? 0;
      return { text };
    } catch (error) {
      if (!(error instanceof FileTooLarge)) throw error;
      if (error.bytes > this.limits.maxFileBytes) return { problem: `${file} is ${sizeText(error.bytes)} on the ${side}, over the ${sizeText(this.limits.maxFileBytes)} a dependency file may have; its packages are not reviewed` };
      // What is left of the budget does not hold it: the files after it are not read either.
      this.bytes = this.limits.maxBytes;
      return { skipped: true };
    } finally {
      await nextTurn();
      this.signal?.throwIfAborted();
    }
  }

  /** The files left unread by the budget, named (a few) and counted; undefined when every file was read. */
  problem(): string | undefined {
    if (this.skipped.length === 0) return undefined;
    return `${unreadFiles(this.skipped)}: a review reads at most ${this.limits.maxFiles} of them and ${sizeText(this.limits.maxBytes)} in all; their packages are not reviewed`;
  }
}

/** "2 dependency files were not read (`a`, `b`)": a few named, the rest counted. */
export function unreadFiles(files: readonly string[]): string {
  const n = files.length;
  const named = files.slice(0, 3).map((f) => `\`${f}\``).join(", ");
  const more = n > 3 ? ` and ${n - 3} more` : "";
  return `${n} dependency ${n === 1 ? "file was" : "files were"} not read (${named}${more})`;
}
