import { useEffect, useState } from "preact/hooks";
import { otherwise } from "../../api/client";
import {
  ListSearch,
  SEARCH_DELAY_MS,
  ErrorAlert,
  DataTable,
  type Column,
  PageHeader,
  Pager,
  ListBody,
  usePagedResource,
} from "../../components";
import { formatTime } from "../../i18n";
import { BASE, followLink } from "../../shell/router";
import { can } from "../../shell/session";
import { PAGE_SIZE, type Assistant } from "./api";
import { forgetPages, listPage, prefetchAround } from "./list-pages";
import { CreateAssistant } from "./create-dialog";
import { t } from "./strings";

/** Where the list was, so that coming back from an assistant returns to the same page and search. */
const place = { page: 1, query: "" };

/** The assistants the member can see, searched and paged by the API (newest first). */
export function AssistantList() {
  const [query, setQuery] = useState(place.query);
  const [typed, setTyped] = useState(place.query);
  const [creating, setCreating] = useState(false);
  useState(forgetPages); // fresh data each time the list opens
  useState(() => {
    // The first page's request leaves with the first render, not after the first paint (when
    // useResource's effect asks for the same page and gets this request).
    // Its failure shows through useResource, which gets this same request.
    listPage(place.page, place.query).catch(otherwise(undefined));
    // While it is under way: a tab's first date formatter costs 15-20 ms (ICU's data), paid now
    // rather than when the rows render.
    setTimeout(() => formatTime(Date.now()));
  });
  // Each answer keeps the search it answers, so the count below never pairs old results with a new search.
  const { page, setPage, list } = usePagedResource(
    async (page) => ({ query, page, ...(await listPage(page, query)) }),
    [query],
    place.page,
  );
  useEffect(() => void Object.assign(place, { page, query }), [page, query]);
  useEffect(() => {
    if (list.data) prefetchAround(list.data.page, list.data.query, list.data.count);
  }, [list.data]);
  // Searching as the operator types, once they pause.
  useEffect(() => {
    if (typed.trim() === query) return;
    const timer = setTimeout(() => (setQuery(typed.trim()), setPage(1)), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed]);

  const columns: Column<Assistant>[] = [
    {
      label: t("name"),
      rowHeader: true,
      cell: (a) => (
        <a href={`${BASE}/assistants/${a.id}`} onClick={followLink}>
          {a.name}
        </a>
      ),
    },
    { label: t("replyMode"), cell: (a) => t(`mode_${a.replyMode}`) },
    { label: t("llm"), cell: (a) => a.largeLanguageModel.name },
    {
      label: t("knowledgeBases"),
      class: "wrap",
      cell: (a) => (a.knowledgeBases.length ? a.knowledgeBases.map((k) => k.name).join(", ") : "—"),
    },
    { label: t("updated"), class: "nowrap", cell: (a) => formatTime(a.updatedAt) },
  ];
  const data = list.data;
  return (
    <>
      <PageHeader
        title={t("title")}
        action={can("chatbot.manage") && { text: t("newAssistant"), run: () => setCreating(true) }}
      />
      <ListSearch
        search={{ typed, setTyped, applySearch: () => (setQuery(typed.trim()), setPage(1)) }}
        label={t("search")}
        hint={t("searchHint")}
      />
      <ErrorAlert error={list.error} />
      <h2 id="assistants-title" class="sr-only">
        {t("title")}
      </h2>
      {/* The count, read out after each search or page. */}
      <p class="list-count muted small" role="status">
        {data &&
          (data.query ? t("countMatching", { n: data.count, query: data.query }) : t("count", { n: data.count }))}
      </p>
      <ListBody
        list={list}
        empty={data?.query ? t("noMatch") : t("noAssistants")}
        table={({ results }) => (
          <div aria-busy={list.loading || undefined} class="assistant-list">
            <DataTable labelledBy="assistants-title" rows={results} rowKey={(a) => a.id} columns={columns} />
          </div>
        )}
      />
      {data && <Pager page={page} count={data.count} pageSize={PAGE_SIZE} onPage={setPage} />}
      {creating && <CreateAssistant onClose={() => setCreating(false)} />}
    </>
  );
}
