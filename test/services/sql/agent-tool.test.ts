import { describe, expect, it } from "vitest";
import { allowedTables } from "../../../src/services/sql/agent-tool";

type Database = Parameters<typeof allowedTables>[0];
type Table = Parameters<typeof allowedTables>[1][number];

const database = (tables: string[] | null) => ({ includeTables: tables ? { tables } : null }) as Database;
const discovered = (...names: string[]) => names.map((tableName) => ({ tableName }) as Table);
const names = (tables: Table[]) => tables.map((t) => t.tableName);

describe("allowedTables: what includeTables lets text-to-SQL read", () => {
  it("every table without includeTables, the named ones with it, their case aside", () => {
    expect(names(allowedTables(database(null), discovered("sales", "secrets")))).toEqual(["sales", "secrets"]);
    expect(names(allowedTables(database(["SALES"]), discovered("sales", "secrets")))).toEqual(["sales"]);
  });

  it("only the exact name when the database holds two of one spelling (PostgreSQL's quoted names)", () => {
    const tables = discovered("secrets", "Secrets", "Sales");
    expect(names(allowedTables(database(["secrets", "sales"]), tables))).toEqual(["secrets", "Sales"]);
    expect(names(allowedTables(database(["SECRETS"]), tables))).toEqual([]);
    expect(names(allowedTables(database(["Secrets"]), tables))).toEqual(["Secrets"]);
  });
});
