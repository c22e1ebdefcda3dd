// Page-local parts the shared kit lacks: a list read a page at a time with its filter box (filtering as typed), and a
// paged table with its error, loading and empty states.
import { useState } from "preact/hooks";
import {
  DataTable,
  ErrorAlert,
  Loading,
  Pager,
  TextField,
  useResource,
  type Column,
  type Resource,
} from "../../components";
import { PAGE_SIZE } from "./api";

/**
 * A list read a page at a time and filtered (`query`, what its FilterField says): `read` loads the page again when the
 * page, the filter or `deps` change, and a new filter starts at the first page. PagedTable shows it with its pager.
 */
export function usePagedList<Data>(read: (page: number, query: string) => Promise<Data>, deps: unknown[]) {
  const [page, setPage] = useState(1);
  const [query, setQuery] = useState("");
  const list = useResource(() => read(page, query), [...deps, page, query]);
  const filter = (value: string) => {
    setQuery(value);
    setPage(1);
  };
  return { ...list, page, setPage, query, filter };
}

/** A list's search box: what is typed filters the list (`onFilter`, usePagedList's `filter`). */
export function FilterField({
  label,
  value,
  onFilter,
}: {
  label: string;
  value: string;
  onFilter: (value: string) => void;
}) {
  return <TextField label={label} type="search" value={value} onInput={(e) => onFilter(e.currentTarget.value)} />;
}

/**
 * A page-form list as it loads: its load's error above, then a spinner, the `empty` note, or the table with its pager
 * (rows keyed by their id).
 */
export function PagedTable<Row extends { id: string }>({
  list,
  error = list.error,
  empty,
  labelledBy,
  columns,
}: {
  /** usePagedList's: the page loaded, the page shown and its setter, which the pager calls. */
  list: Resource<{ count: number; results: Row[] } | null> & { page: number; setPage: (page: number) => void };
  /** The error shown above the table: the list's, unless the page shows that elsewhere. */
  error?: unknown;
  empty: string;
  labelledBy: string;
  columns: Column<Row>[];
}) {
  const body = () => {
    // null: nothing to list yet (no file chosen); still loading, it is not "empty" either.
    if (!list.data && list.loading) return <Loading />;
    if (list.data === undefined) return null;
    if (!list.data?.count) return <p class="muted">{empty}</p>;
    return (
      <>
        <DataTable labelledBy={labelledBy} rows={list.data.results} rowKey={(row) => row.id} columns={columns} />
        <Pager page={list.page} count={list.data.count} pageSize={PAGE_SIZE} onPage={list.setPage} />
      </>
    );
  };
  return (
    <>
      <ErrorAlert error={error} />
      {body()}
    </>
  );
}
