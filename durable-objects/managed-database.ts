import { DurableObject } from "cloudflare:workers";
import type { Bindings } from "../src/env";
import { keptRows } from "../src/services/sql/result-size";

export interface ManagedColumn {
  name: string;
  /** SQLite type affinity: INTEGER, REAL or TEXT. */
  type: "INTEGER" | "REAL" | "TEXT";
}

export interface QueryResult {
  columns: string[];
  rows: unknown[][];
  /** More rows existed than the cap. */
  truncated: boolean;
}

class Rollback extends Error {}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * One managed SQL database (databaseType `managed`): a SQLite database of its own in a Durable
 * Object, `idFromName(sqlDatabaseId)`. Nothing else lives in it, so a model's query can only ever
 * reach that database's tables: never the platform's own tables nor another organization's. Queries
 * run inside a transaction that is always rolled back, so even a statement that slipped past the
 * checks could not write.
 */
export class ManagedDatabase extends DurableObject<Bindings> {
  /** Creates a table and fills it; a table of that name is replaced only when `replace`. */
  createTable(name: string, columns: ManagedColumn[], rows: unknown[][], replace = false): number {
    const sql = this.ctx.storage.sql;
    this.ctx.storage.transactionSync(() => {
      if (replace) sql.exec(`DROP TABLE IF EXISTS ${quote(name)}`);
      sql.exec(`CREATE TABLE ${quote(name)} (${columns.map((c) => `${quote(c.name)} ${c.type}`).join(", ")})`);
      const insert = `INSERT INTO ${quote(name)} VALUES (${columns.map(() => "?").join(", ")})`;
      for (const row of rows) sql.exec(insert, ...columns.map((_, i) => (row[i] === undefined ? null : row[i])));
    });
    return rows.length;
  }

  /** More rows for a table being filled (large files arrive in parts). */
  appendRows(name: string, width: number, rows: unknown[][]): number {
    const sql = this.ctx.storage.sql;
    const insert = `INSERT INTO ${quote(name)} VALUES (${Array.from({ length: width }, () => "?").join(", ")})`;
    this.ctx.storage.transactionSync(() => {
      for (const row of rows)
        sql.exec(insert, ...Array.from({ length: width }, (_, i) => (row[i] === undefined ? null : row[i])));
    });
    return rows.length;
  }

  dropTable(name: string) {
    this.ctx.storage.sql.exec(`DROP TABLE IF EXISTS ${quote(name)}`);
  }

  /** Deletes everything (the SQL database was deleted). */
  async destroy() {
    await this.ctx.storage.deleteAll();
  }

  /**
   * Runs a checked read-only query, at most `maxRows` rows and the result's byte budget (result-size.ts); any write it
   * could make is rolled back. Rows are read one at a time and stop at the budget here, so what crosses to the Worker
   * is bounded (an RPC message is), not every row whole.
   */
  query(statement: string, maxRows: number): QueryResult {
    let result: QueryResult = { columns: [], rows: [], truncated: false };
    try {
      this.ctx.storage.transactionSync(() => {
        const cursor = this.ctx.storage.sql.exec(`SELECT * FROM (${statement}) LIMIT ${maxRows + 1}`);
        result = { columns: cursor.columnNames, ...keptRows(cursor.raw() as Iterable<unknown[]>, maxRows) };
        throw new Rollback();
      });
    } catch (err) {
      if (!(err instanceof Rollback)) throw err;
    }
    return result;
  }

  /** Bare query time of a statement (benchmarks): the same path without the checks around it. */
  count(table: string): number {
    return Number([...this.ctx.storage.sql.exec(`SELECT count(*) FROM ${quote(table)}`).raw()][0][0]);
  }
}
