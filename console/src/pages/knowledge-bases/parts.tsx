// Page-local parts the shared kit lacks: a list's filter box with its page, and a paged table with its error, loading
// and empty states.
import { useState } from "preact/hooks";
import { DataTable, ErrorAlert, Loading, Pager, TextField, type Column, type Resource } from "../../components";
import { PAGE_SIZE } from "./api";

/** A filtered list's page and filter (`query`, what its FilterField says): a new filter starts at the first page. */
export function useFilteredPages() {
  const [page, setPage] = useState(1);
  const [query, setQuery] = useState("");
  const filter = (value: string) => {
    setQuery(value);
    setPage(1);
  };
  return { page, setPage, query, filter };
}

/** A list's search box: what is typed filters the list (`onFilter`, useFilteredPages' `filter`). */
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
  page,
  onPage,
}: {
  list: Resource<{ count: number; results: Row[] } | null>;
  /** The error shown above the table: the list's, unless the page shows that elsewhere. */
  error?: unknown;
  empty: string;
  labelledBy: string;
  columns: Column<Row>[];
  page: number;
  onPage: (page: number) => void;
}) {
  const body = () => {
    // null: nothing to list yet (no file chosen); still loading, it is not "empty" either.
    if (!list.data && list.loading) return <Loading />;
    if (list.data === undefined) return null;
    if (!list.data?.count) return <p class="muted">{empty}</p>;
    return (
      <>
        <DataTable labelledBy={labelledBy} rows={list.data.results} rowKey={(row) => row.id} columns={columns} />
        <Pager page={page} count={list.data.count} pageSize={PAGE_SIZE} onPage={onPage} />
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
