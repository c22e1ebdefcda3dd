import { useEffect, useRef, useState } from "preact/hooks";
import { Button } from "./button";
import { ActionDialog } from "./dialog";
import { ErrorAlert } from "./alert";
import { focusRefusal } from "./refusal-focus";
import { t } from "./strings";
import { toast } from "./toast";
import { useAction } from "./use-action";

interface Props {
  title: string;
  message: string;
  /** The confirming button's text ("Delete", "Revoke"). */
  action: string;
  open: boolean;
  onClose: () => void;
  /** Runs on confirmation; the dialog closes when it resolves, and shows the API's or the network's error when it
   * throws. */
  onConfirm: () => Promise<void>;
}

/** Asks before something that cannot be undone. */
export function ConfirmDialog({ title, message, action, open, onClose, onConfirm }: Props) {
  const confirming = useAction(async () => {
    await onConfirm();
    onClose();
  });
  // Opened again (often for another row): the last refusal is not this one's.
  useEffect(() => {
    if (open) confirming.clear();
  }, [open]);
  // The busy button dropped the focus: the refusal's alert takes it, as a refused form's does.
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (confirming.problem && box.current) focusRefusal(box.current);
  }, [confirming.problem]);
  return (
    <ActionDialog
      title={title}
      open={open}
      onClose={onClose}
      action={
        <Button variant="danger" busy={confirming.busy} onClick={confirming.run}>
          {action}
        </Button>
      }
    >
      <div ref={box}>
        <p>{message}</p>
        <ErrorAlert error={confirming.problem} />
      </div>
    </ActionDialog>
  );
}

/** What a list says and does around removing one of its rows. */
export interface Removal<Row> {
  title: string;
  message: (row: Row) => string;
  /** The confirming button's text ("Revoke", "Remove"); "Delete" when not given. */
  action?: string;
  run: (row: Row) => Promise<unknown>;
  /** The toast once it is done. */
  done: (row: Row) => string;
}

/**
 * Asks before removing `row` (open while there is one), then removes it, says so in a toast and runs `after` (the
 * list's reload); a refusal shows in the dialog.
 */
export function RemoveDialog<Row>({
  row,
  remove,
  onClose,
  after,
}: {
  row: Row | null;
  remove: Removal<Row>;
  onClose: () => void;
  after: () => Promise<unknown>;
}) {
  return (
    <ConfirmDialog
      open={row !== null}
      title={remove.title}
      message={row === null ? "" : remove.message(row)}
      action={remove.action ?? t("delete")}
      onClose={onClose}
      onConfirm={async () => {
        const removed = row!;
        await remove.run(removed);
        toast(remove.done(removed));
        await after();
      }}
    />
  );
}

/**
 * The removal of one row of a list that is not a ResourceList: `ask(row)` opens the confirmation,
 * `dialog` is it (rendered once, in the page); `after` runs once the row is removed (the list's reload).
 */
export function useRemoval<Row>({ after, ...remove }: Removal<Row> & { after: () => Promise<unknown> }) {
  const [row, setRow] = useState<Row | null>(null);
  const dialog = <RemoveDialog row={row} remove={remove} onClose={() => setRow(null)} after={after} />;
  return { ask: setRow, dialog };
}
