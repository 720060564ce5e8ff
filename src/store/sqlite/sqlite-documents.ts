/** The keyed-document primitive on SQLite: read, change and write in one `BEGIN IMMEDIATE` transaction, so SQLite's write lock serialises every writer of the file. */
import type Database from "better-sqlite3";
import type { Change, KeyedDocuments } from "../keyed-documents.js";

/** Where a kind of document lives in the file: its row (or rows) read and written inside the transaction. */
export interface DocumentRows<K, D> {
  read(key: K): D | undefined;
  write(key: K, doc: D): void;
}

export class SqliteDocuments<K, D> implements KeyedDocuments<K, D> {
  constructor(
    private readonly db: Database.Database,
    private readonly rows: DocumentRows<K, D>,
  ) {}

  async read(key: K): Promise<D | undefined> {
    return this.rows.read(key);
  }

  async update<A>(key: K, change: Change<D, A>): Promise<A> {
    return this.db
      .transaction((): A => {
        const { next, answer } = change(this.rows.read(key));
        if (next !== undefined) this.rows.write(key, next);
        return answer;
      })
      .immediate();
  }
}
