import {
  actionsColumn,
  editAction,
  deleteAction,
  TextAreaField,
  FormDialog,
  useRemoval,
  ErrorAlert,
  Loading,
  SelectField,
  toast,
  type Column,
  useResource,
} from "../../components";
import { useState } from "preact/hooks";
import {
  PAGE_SIZE,
  deleteTextNode,
  listFiles,
  listTextNodes,
  updateTextNode,
  type KnowledgeBase,
  type TextNode,
} from "./api";
import { Highlighted } from "./highlight";
import { FilterField, PagedTable, usePagedList } from "./parts";
import { t } from "./strings";

/** A file's passages as retrieval sees them, filtered by text; managers edit or delete one. */
export function TextNodesSection({ kb, editable }: { kb: KnowledgeBase; editable: boolean }) {
  const files = useResource(
    () => listFiles(kb.id, 1).then((p) => p.results.filter((f) => f.status === "done")),
    [kb.id],
  );
  const [chosen, setChosen] = useState("");
  const [editing, setEditing] = useState<TextNode | null>(null);
  const fileId = chosen || files.data?.[0]?.id || "";
  const nodes = usePagedList(
    (page, query) => (fileId ? listTextNodes(fileId, page, query) : Promise.resolve(null)),
    [fileId],
  );
  const removal = useRemoval<TextNode>({
    title: t("deleteTextNodeTitle"),
    message: () => t("deleteTextNodeMessage"),
    run: (node) => deleteTextNode(node.id),
    done: () => t("textNodeDeleted"),
    after: nodes.reload,
  });
  // Passages are numbered in document order across pages.
  const number = (n: TextNode) => (nodes.page - 1) * PAGE_SIZE + (nodes.data?.results.indexOf(n) ?? 0) + 1;
  const columns: Column<TextNode>[] = [
    { label: "#", class: "nowrap", rowHeader: true, cell: number },
    {
      label: t("position"),
      class: "nowrap",
      cell: (n) =>
        n.pageStart === null
          ? "—"
          : n.pageEnd !== null && n.pageEnd !== n.pageStart
            ? `${n.pageStart}–${n.pageEnd}`
            : n.pageStart,
    },
    { label: t("text"), class: "kb-node-text", cell: (n) => <Highlighted html={n.highlightedText} /> },
    { label: t("characters"), cell: (n) => n.charactersCount },
    { label: t("hits"), cell: (n) => n.hitsCount },
  ];
  if (editable)
    columns.push(
      actionsColumn<TextNode>(t("actions"), [
        editAction((n) => t("editPassageNamed", { n: number(n) }), setEditing),
        deleteAction((n) => t("deletePassageNamed", { n: number(n) }), removal.ask),
      ]),
    );
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
                nodes.setPage(1);
              }}
              options={files.data.map((f) => [f.id, f.filename])}
            />
            <FilterField label={t("filterText")} value={nodes.query} onFilter={nodes.filter} />
          </div>
          <PagedTable
            list={nodes}
            // Its load's error is shown above, with the files'.
            error={null}
            empty={t("noTextNodes")}
            labelledBy="kb-nodes-title"
            columns={columns}
          />
        </>
      )}
      {editing && (
        <TextNodeForm
          node={editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            toast(t("textNodeSaved"));
            nodes.reload();
          }}
        />
      )}
      {removal.dialog}
    </section>
  );
}

function TextNodeForm({ node, onClose, onSaved }: { node: TextNode; onClose: () => void; onSaved: () => void }) {
  const save = async (form: FormData) => {
    await updateTextNode(node.id, String(form.get("text") ?? ""));
    onSaved();
    onClose();
  };
  return (
    <FormDialog title={t("editTextNode")} submit={t("saveEdit")} save={save} onClose={onClose}>
      <TextAreaField label={t("text")} name="text" required maxLength={100_000} rows={8} defaultValue={node.text} />
      <p class="hint">{t("textNodeHint")}</p>
    </FormDialog>
  );
}
