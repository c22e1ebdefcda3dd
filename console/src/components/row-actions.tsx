import { BASE, followLink } from "../shell/router";
import { Button } from "./button";
import type { Column } from "./data-table";
import { t } from "./strings";

/** A button of a row: its word, its accessible name (with the row's name), what it does. */
export interface RowAction<Row> {
  text: string;
  named: (row: Row) => string;
  run: (row: Row) => void;
  danger?: boolean;
  /** Shown only for the rows it is true of (those the member may change, say). */
  when?: (row: Row) => boolean;
}

type Named<Row> = (row: Row) => string;

/** A row's Edit, in the kit's word: `named` gives its accessible name, `when` the rows it is offered for. */
export function editAction<Row>(
  named: Named<Row>,
  run: (row: NoInfer<Row>) => void,
  when?: (row: NoInfer<Row>) => boolean,
): RowAction<Row> {
  return { text: t("edit"), named, run, when };
}

/** A row's Delete (a danger button), in the kit's word; `run` usually asks first (a RemoveDialog). */
export function deleteAction<Row>(
  named: Named<Row>,
  run: (row: NoInfer<Row>) => void,
  when?: (row: NoInfer<Row>) => boolean,
): RowAction<Row> {
  return { text: t("delete"), named, run, when, danger: true };
}

/**
 * A list's last column: each row's buttons (Edit, Delete, ...), named for screen readers, under a
 * heading only they read. A `false` action is left out (one the member may not take); a row with
 * no button left has an empty cell.
 */
export function actionsColumn<Row>(label: string, actions: (RowAction<Row> | false)[]): Column<Row> {
  const offered = actions.filter((a): a is RowAction<Row> => a !== false);
  return {
    label,
    hiddenLabel: true,
    cell: (row) => {
      const shown = offered.filter((a) => a.when?.(row) ?? true);
      return (
        shown.length > 0 && (
          <div class="row-actions">
            {shown.map((a) => (
              <Button
                key={a.text}
                variant={a.danger ? "danger" : "secondary"}
                aria-label={a.named(row)}
                onClick={() => a.run(row)}
              >
                {a.text}
              </Button>
            ))}
          </div>
        )
      );
    },
  };
}

/**
 * The actions column of a `useCrudList` list: a row's Edit opens the list's form on it, its Delete asks first (the
 * list's RemoveDialog). `named` gives each button's accessible name; `when` the rows each is offered for.
 */
export function editDeleteColumn<Row>(
  label: string,
  crud: { setEditing: (row: Row) => void; setDeleting: (row: Row) => void },
  named: { edit: Named<Row>; delete: Named<Row> },
  when: { edit?: (row: Row) => boolean; delete?: (row: Row) => boolean } = {},
): Column<Row> {
  return actionsColumn<Row>(label, [
    editAction(named.edit, crud.setEditing, when.edit),
    deleteAction(named.delete, crud.setDeleting, when.delete),
  ]);
}

/** A list's last column: a link to each row's own page (`to`, under the console's base), named for screen readers. */
export function linkColumn<Row>(text: string, named: (row: Row) => string, to: (row: Row) => string): Column<Row> {
  return {
    label: text,
    hiddenLabel: true,
    cell: (row) => (
      <div class="row-actions">
        <a class="btn secondary" href={`${BASE}${to(row)}`} onClick={followLink} aria-label={named(row)}>
          {text}
        </a>
      </div>
    ),
  };
}
