/**
 * One review's budget for everything its dependency pass reads: registry documents, manifests and
 * tarballs, counted while they stream (and cached tarballs before they are read). Once spent,
 * every further read is refused with the same plain reason, which the review names per package.
 */

/** The budget is spent: the package that hit it (and every later one) is not inspected. */
export class BudgetSpent extends Error {
  override name = "BudgetSpent";
}

/** Bytes in words: `512 B`, `64 KB`, `200 MB`. */
export function byteSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round(bytes / (1024 * 1024))} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} B`;
}

export class ByteBudget {
  private spent = 0;
  constructor(readonly limit: number) {}

  get remaining(): number {
    return Math.max(0, this.limit - this.spent);
  }

  private error(): BudgetSpent {
    return new BudgetSpent(`the review's dependency budget (${byteSize(this.limit)}) is spent`);
  }

  /** Throws when nothing is left: called before each read starts. */
  check(): void {
    if (this.spent >= this.limit) throw this.error();
  }

  /** Counts bytes read; throws once they pass the budget (the read that did so is refused too). */
  charge(bytes: number): void {
    this.spent += bytes;
    if (this.spent > this.limit) throw this.error();
  }
}
