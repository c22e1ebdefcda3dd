import type { ComponentChildren } from "preact";

export interface Column<Row> {
  /** The header, and each cell's label when the table is stacked on a phone. */
  label: string;
  cell: (row: Row) => ComponentChildren;
  /** The column that names the row (a row header for screen readers); one per table. */
  rowHeader?: boolean;
  /** Header read by screen readers only (action columns). */
  hiddenLabel?: boolean;
  class?: string;
}

/**
 * A table of records: real table semantics (column headers, a row header naming each row), in a
 * focusable scroll region on narrow screens, stacked into one card per row on phones.
 */
export function DataTable<Row>({
  labelledBy,
  columns,
  rows,
  rowKey,
}: {
  labelledBy: string;
  columns: Column<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string;
}) {
  return (
    <div class="table-wrap" role="region" aria-labelledby={labelledBy} tabIndex={0}>
      <table class="table">
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.label} scope="col">
                {c.hiddenLabel ? <span class="sr-only">{c.label}</span> : c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((c) =>
                c.rowHeader ? (
                  <th key={c.label} scope="row" class={c.class}>
                    {c.cell(row)}
                  </th>
                ) : (
                  <td key={c.label} class={c.class} data-label={c.hiddenLabel ? undefined : c.label}>
                    {c.cell(row)}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
