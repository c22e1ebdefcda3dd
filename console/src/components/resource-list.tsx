import type { ComponentChildren } from "preact";
import { useEffect, useState } from "preact/hooks";
import { ErrorAlert, Loading } from "./alert";
import { RemoveDialog, type Removal } from "./confirm";
import { DataTable, type Column } from "./data-table";
import { TextField } from "./field";
import { Pager } from "./pager";
import { toast } from "./toast";
import { usePagedResource, type Resource } from "./use-resource";

/** A page of a page-number list, as the API answers it. */
export interface ListPage<Row> {
  count: number;
  results: Row[];
}

/** How long after the last key press a list's search box searches: each key press is not a request. */
export const SEARCH_DELAY_MS = 300;

/**
 * The state of a page's list of records: the page number, the search (what its `ListSearch` box says, once typing
 * stops), the page loaded (again when `deps`, the search or the page change; see `usePagedResource`), the record
 * being edited ("new" for the create form) and the one being deleted.
 */
export function useCrudList<Row>(load: (page: number, search: string) => Promise<ListPage<Row>>, deps: unknown[]) {
  const [typed, setTyped] = useState("");
  const [search, setSearch] = useState("");
  const { page, setPage, list } = usePagedResource((page) => load(page, search), [...deps, search]);
  /** Searches for what is typed now, from the first page. */
  const applySearch = () => {
    if (typed.trim() === search) return;
    setSearch(typed.trim());
    setPage(1);
  };
  useEffect(() => {
    const timer = setTimeout(applySearch, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  const [editing, setEditing] = useState<Row | "new" | null>(null);
  const [deleting, setDeleting] = useState<Row | null>(null);
  return { page, setPage, typed, setTyped, search, applySearch, list, editing, setEditing, deleting, setDeleting };
}

export type CrudList<Row> = ReturnType<typeof useCrudList<Row>>;

export interface ResourceListProps<Row, Saved> {
  crud: CrudList<Row>;
  /** The id of the list's heading (the table's name for screen readers). */
  labelledBy: string;
  /** That heading, for screen readers only, where the page shows none (its id is `labelledBy`). */
  heading?: string;
  columns: Column<Row>[];
  /** Said when the list is empty (no records, or none that match). */
  empty: string;
  /** Results a page: the pager's. */
  pageSize: number;
  /** The list's name for its pager, where the page has another list with a pager (see Pager's `of`). */
  pagerOf?: string;
  /** The error shown above the list, when the page loads more than the list (defaults to the list's). */
  error?: unknown;
  /**
   * The create or edit form, while one is open: `row` is null for a new record; the form calls `saved` with what it
   * saved (and whether that was a new record).
   */
  form?: (row: Row | null, close: () => void, saved: (record: Saved, created?: boolean) => void) => ComponentChildren;
  /** What the toast says once the form has saved `record`; the list then loads again. */
  saved?: (record: Saved, created: boolean) => string;
  /** Asks before a delete, then deletes, says it (a toast) and loads the page again. */
  remove?: Removal<Row>;
}

/**
 * The list part of a page of records (keyed by their id): the load's error, "loading" until the
 * first answer, the empty text, the table with its pager, and the create/edit form (its toast once
 * saved, and the list loaded again) and delete confirmation of `useCrudList`.
 */
export function ResourceList<Row extends { id: string }, Saved = Row>({
  crud,
  labelledBy,
  heading,
  columns,
  empty,
  pageSize,
  pagerOf,
  error,
  form,
  saved,
  remove,
}: ResourceListProps<Row, Saved>) {
  const { list, page, setPage, editing, setEditing, deleting, setDeleting } = crud;
  const onSaved = (record: Saved, created = false) => {
    if (saved) toast(saved(record, created));
    void list.reload();
  };
  return (
    <>
      {heading && (
        <h2 id={labelledBy} class="sr-only">
          {heading}
        </h2>
      )}
      <ErrorAlert error={error === undefined ? list.error : error} />
      <ListBody
        list={list}
        empty={empty}
        table={(data) => (
          <>
            <DataTable labelledBy={labelledBy} rows={data.results} rowKey={(row) => row.id} columns={columns} />
            <Pager page={page} count={data.count} pageSize={pageSize} onPage={setPage} of={pagerOf} />
          </>
        )}
      />
      {editing && form?.(editing === "new" ? null : editing, () => setEditing(null), onSaved)}
      {remove && <RemoveDialog row={deleting} remove={remove} onClose={() => setDeleting(null)} after={list.reload} />}
    </>
  );
}

/** "Loading" until a list's first answer, then its empty text or `table` (the load's error is the caller's). */
export function ListBody<Data extends { count: number } | unknown[]>({
  list,
  empty,
  table,
}: {
  list: Resource<Data>;
  empty: string;
  table: (data: Data) => ComponentChildren;
}) {
  if (list.data === undefined) return list.loading ? <Loading /> : null;
  const count = Array.isArray(list.data) ? list.data.length : list.data.count;
  return count === 0 ? <p>{empty}</p> : table(list.data);
}

/**
 * The search box above a list: it shows `search.typed` and sets it as the member types (`useCrudList` searches
 * once typing stops); Enter searches at once (`search.applySearch`).
 */
export function ListSearch({
  search,
  label,
  hint,
}: {
  search: Pick<CrudList<unknown>, "typed" | "setTyped" | "applySearch">;
  label: string;
  hint?: string;
}) {
  return (
    <form
      class="list-search"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        search.applySearch();
      }}
    >
      <TextField
        label={label}
        hint={hint}
        type="search"
        value={search.typed}
        onInput={(e) => search.setTyped(e.currentTarget.value)}
      />
    </form>
  );
}
