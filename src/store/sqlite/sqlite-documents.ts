/** The keyed-document primitive on SQLite: read, change and write in one `BEGIN IMMEDIATE` transaction, so SQLite's write lock serialises every writer of the file. */
import type Database from "better-sqlite3";
import { documentCollection, type Change, type DocumentCollection, type KeyedDocuments } from "../keyed-documents.js";

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

/**
 * A table's documents with the upkeep a store needs: rows whose time column is older than `before`
 * deleted, and the database closed once.
 */
export function tableDocuments<K, D>(db: Database.Database, rows: DocumentRows<K, D>, table: { name: string; timeColumn: string }): DocumentCollection<K, D> {
  const prune = db.prepare(`DELETE FROM ${table.name} WHERE ${table.timeColumn} < ?`);
  return documentCollection(new SqliteDocuments(db, rows), {
    prune: async (before) => prune.run(before).changes,
    close: async () => {
      if (db.open) db.close();
    },
  });
}
