/**
 * Rows the operator's files give by model id (prices, providers' ids), kept process-wide: set once
 * at start (model-settings.ts), put back by tests. Ids are matched lower-cased and trimmed, as the
 * built-in tables match them.
 */
export class OperatorRows<T> {
  private rows = new Map<string, T>();

  /** Installs `rows`; returns the previous ones so a test can put them back. */
  set(rows: Record<string, T>): Map<string, T> {
    const previous = this.rows;
    this.rows = new Map(Object.entries(rows).map(([id, row]) => [id.toLowerCase().trim(), row]));
    return previous;
  }

  restore(previous: Map<string, T>): void {
    this.rows = previous;
  }

  /** The row of `id` (any case, surrounding blanks ignored). */
  get(id: string): T | undefined {
    return this.rows.get(id.toLowerCase().trim());
  }

  values(): IterableIterator<T> {
    return this.rows.values();
  }
}
