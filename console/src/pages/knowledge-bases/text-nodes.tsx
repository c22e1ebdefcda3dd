import {
  editDeleteColumn,
  TextAreaField,
  FormDialog,
  ErrorAlert,
  ListSearch,
  Loading,
  ResourceList,
  SelectField,
  type Column,
  useCrudList,
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
import { t } from "./strings";

/** A file's passages as retrieval sees them, filtered by text; managers edit or delete one. */
export function TextNodesSection({ kb, editable }: { kb: KnowledgeBase; editable: boolean }) {
  const files = useResource(
    () => listFiles(kb.id, 1).then((p) => p.results.filter((f) => f.status === "done")),
    [kb.id],
  );
  const [chosen, setChosen] = useState("");
  const fileId = chosen || files.data?.[0]?.id || "";
  // No file done yet: nothing to list (the section says so before the list shows).
  const crud = useCrudList(
    (page, search) => (fileId ? listTextNodes(fileId, page, search) : Promise.resolve({ count: 0, results: [] })),
    [fileId],
  );
  // Passages are numbered in document order across pages.
  const number = (n: TextNode) => (crud.page - 1) * PAGE_SIZE + (crud.list.data?.results.indexOf(n) ?? 0) + 1;
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
      editDeleteColumn<TextNode>(t("actions"), crud, {
        edit: (n) => t("editPassageNamed", { n: number(n) }),
        delete: (n) => t("deletePassageNamed", { n: number(n) }),
      }),
    );
  return (
    <section class="section" aria-labelledby="kb-nodes-title">
      <h2 id="kb-nodes-title">{t("textNodes")}</h2>
      <p class="muted">{t("textNodesIntro")}</p>
      <ErrorAlert error={files.error ?? crud.list.error} />
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
                crud.setPage(1);
              }}
              options={files.data.map((f) => [f.id, f.filename])}
            />
            <ListSearch search={crud} label={t("filterText")} />
          </div>
          <ResourceList
            crud={crud}
            // Its load's error is shown above, with the files'.
            error={null}
            labelledBy="kb-nodes-title"
            columns={columns}
            empty={t("noTextNodes")}
            pageSize={PAGE_SIZE}
            form={(node, close, saved) =>
              node && <TextNodeForm node={node} onClose={close} onSaved={() => saved(node)} />
            }
            saved={() => t("textNodeSaved")}
            remove={{
              title: t("deleteTextNodeTitle"),
              message: () => t("deleteTextNodeMessage"),
              run: (node) => deleteTextNode(node.id),
              done: () => t("textNodeDeleted"),
            }}
          />
        </>
      )}
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
