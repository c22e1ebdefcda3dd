import { getTableColumns, sql, type SQL } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";

/**
 * A whole row's values as the fields of a SELECT, in the table's column order: what drizzle's INSERT ... SELECT takes,
 * so that one statement inserts the row only where the SELECT's WHERE (a condition on other tables) still holds.
 * Each value is bound as its column maps it (JSON columns as text).
 */
export function selectedRow<T extends SQLiteTable>(
  table: T,
  row: T["$inferSelect"],
): Record<keyof T["$inferSelect"], SQL.Aliased> {
  return Object.fromEntries(
    Object.entries(getTableColumns(table)).map(([key, column]) => [
      key,
      sql`${sql.param(row[key as keyof typeof row], column)}`.as(key),
    ]),
  ) as Record<keyof T["$inferSelect"], SQL.Aliased>;
}
