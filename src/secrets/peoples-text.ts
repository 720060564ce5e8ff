/**
 * Text people wrote, as crewbot sends it back to GitHub: a pull request's description around
 * crewbot's block, a file on a branch crewbot commits again, a file's bytes, a path. Redaction and
 * length fitting are for what crewbot writes; what people wrote goes byte for byte (DESIGN: text
 * outside crewbot's markers is never changed). The writer (report/github-writer.ts) knows this type:
 * only the lines crewbot added are redacted, nothing is cut, and a write holding one of crewbot's
 * own secrets is refused rather than changed.
 */
import { redact, secretForms } from "./redact.js";

/** A write refused so as not to change people's text: over GitHub's length, or holding a secret of crewbot's. */
export class PeoplesTextRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PeoplesTextRefused";
  }
}

const linesOf = (text: string): string[] => text.split("\n");

export class PeoplesText {
  private constructor(
    /** What is sent (for a blob: its base64). */
    readonly text: string,
    /** The lines people wrote; a line of `text` among them is theirs. Undefined: all of `text` is theirs. */
    private readonly theirs: ReadonlySet<string> | undefined,
    /** What is searched for a secret: the text, or a blob's bytes. */
    private readonly raw: string | Buffer,
  ) {}

  /** Text people wrote, sent as it is. */
  static of(text: string): PeoplesText {
    return new PeoplesText(text, undefined, text);
  }

  /**
   * crewbot's edit of texts people wrote (`theirs`: the description as read, the file on the
   * branch and on the default branch): each line of `text` found in them is theirs and sent as
   * it is; the other lines are crewbot's, redacted a run of lines at a time.
   */
  static edited(text: string, ...theirs: Array<string | undefined>): PeoplesText {
    const lines = new Set(theirs.flatMap((t) => (t === undefined ? [] : linesOf(t))));
    return new PeoplesText(text, lines, text);
  }

  /** A file's bytes, as the Git Data API takes a blob (base64), sent as they are. */
  static blob(bytes: Buffer): PeoplesText {
    return new PeoplesText(bytes.toString("base64"), undefined, bytes);
  }

  /**
   * What the writer sends: people's lines as they are, crewbot's redacted. Throws
   * PeoplesTextRefused when a literal secret (`secrets`, in any of its forms) would still be sent:
   * it can only be in people's text, which crewbot neither changes nor posts a secret in.
   */
  sendable(secrets: readonly string[], what: string): string {
    const out = this.theirs === undefined ? this.text : this.redactOurs(secrets);
    const raw = this.theirs === undefined ? this.raw : out;
    const held = secrets.some((secret) => secretForms(secret).some((form) => raw.includes(form)));
    if (held) {
      throw new PeoplesTextRefused(
        `not written: ${what} holds one of crewbot's own secrets (the installation token or an operator secret) in text people wrote; crewbot neither posts a secret nor changes people's text — rotate that secret`,
      );
    }
    return out;
  }

  private redactOurs(secrets: readonly string[]): string {
    const out: string[] = [];
    let ours: string[] = [];
    const flush = () => {
      if (ours.length > 0) out.push(redact(ours.join("\n"), secrets));
      ours = [];
    };
    for (const line of linesOf(this.text)) {
      if (this.theirs!.has(line)) {
        flush();
        out.push(line);
      } else {
        ours.push(line);
      }
    }
    flush();
    return out.join("\n");
  }
}
