import { useState } from "preact/hooks";
import { DataTable, ErrorAlert, Loading, Pager, SelectField, TextField, useResource, type Column } from "../../components";
import { PAGE_SIZE, listFiles, listTextNodes, type KnowledgeBase, type TextNode } from "./api";
import { Highlighted } from "./highlight";
import { t } from "./strings";

/** A file's passages as retrieval sees them, filtered by text (the API has no writes for text nodes: they come from files). */
export function TextNodesSection({ kb }: { kb: KnowledgeBase }) {
  const files = useResource(() => listFiles(kb.id, 1).then((p) => p.results.filter((f) => f.status === "done")), [kb.id]);
  const [chosen, setChosen] = useState("");
  const [query, setQuery] = useState("");
  const [page, setPage] = useState(1);
  const fileId = chosen || files.data?.[0]?.id || "";
  const nodes = useResource(() => (fileId ? listTextNodes(fileId, page, query) : Promise.resolve(null)), [fileId, page, query]);
  const columns: Column<TextNode>[] = [
    { label: t("position"), class: "nowrap", rowHeader: true, cell: (n) => (n.pageStart === null ? "—" : n.pageEnd !== null && n.pageEnd !== n.pageStart ? `${n.pageStart}–${n.pageEnd}` : n.pageStart) },
    { label: t("text"), class: "kb-node-text", cell: (n) => <Highlighted html={n.highlightedText} /> },
    { label: t("characters"), cell: (n) => n.charactersCount },
    { label: t("hits"), cell: (n) => n.hitsCount },
  ];
  return (
    <section class="section" aria-labelledby="kb-nodes-title">
      <h2 id="kb-nodes-title">{t("textNodes")}</h2>
      <p class="muted">{t("textNodesIntro")}</p>
      <ErrorAlert error={files.error ?? nodes.error} />
      {files.data === undefined ? (
        <Loading />
      ) : files.data.length === 0 ? (
        <p class="muted">{t("noDoneFiles")}</p>
      ) : (
        <>
          <div class="kb-toolbar">
            <SelectField
              label={t("file")}
              value={fileId}
              onChange={(e) => {
                setChosen(e.currentTarget.value);
                setPage(1);
              }}
              options={files.data.map((f) => [f.id, f.filename])}
            />
            <TextField
              label={t("filterText")}
              type="search"
              value={query}
              onInput={(e) => {
                setQuery(e.currentTarget.value);
                setPage(1);
              }}
            />
          </div>
          {nodes.data === undefined ? (
            nodes.loading && <Loading />
          ) : !nodes.data?.count ? (
            <p class="muted">{t("noTextNodes")}</p>
          ) : (
            <>
              <DataTable labelledBy="kb-nodes-title" rows={nodes.data.results} rowKey={(n) => n.id} columns={columns} />
              <Pager page={page} count={nodes.data.count} pageSize={PAGE_SIZE} onPage={setPage} />
            </>
          )}
        </>
      )}
    </section>
  );
}
