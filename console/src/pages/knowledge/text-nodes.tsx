import { useState } from "preact/hooks";
import { ErrorAlert, Loading, SelectField, useResource, type Column } from "../../components";
import { listFiles, listTextNodes, type KnowledgeBase, type TextNode } from "./api";
import { Highlighted } from "./highlight";
import { FilterField, PagedTable } from "./parts";
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
            <FilterField
              label={t("filterText")}
              value={query}
              onFilter={(q) => {
                setQuery(q);
                setPage(1);
              }}
            />
          </div>
          <PagedTable list={nodes} empty={t("noTextNodes")} labelledBy="kb-nodes-title" columns={columns} rowKey={(n) => n.id} page={page} onPage={setPage} />
        </>
      )}
    </section>
  );
}
