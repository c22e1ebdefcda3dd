import {
  actionsColumn,
  editAction,
  deleteAction,
  Button,
  useRemoval,
  toast,
  useResource,
  type Column,
} from "../../components";
import { useState } from "preact/hooks";
import { deleteFaq, listFaqs, listLabels, type Faq, type KnowledgeBase } from "./api";
import { FaqForm } from "./faq-form";
import { FaqImport } from "./faq-import";
import { LabelsBar } from "./labels";
import { FilterField, PagedTable, usePagedList } from "./parts";
import { t } from "./strings";

/** The base's FAQs and the labels they (and files) carry: find, add, edit, delete, import. */
export function FaqsSection({ kb, editable }: { kb: KnowledgeBase; editable: boolean }) {
  const faqs = usePagedList((page, query) => listFaqs(kb.id, page, query), [kb.id]);
  const labels = useResource(() => listLabels(kb.id), [kb.id]);
  const [editing, setEditing] = useState<Faq | "new" | null>(null);
  const [importing, setImporting] = useState(false);
  const removal = useRemoval<Faq>({
    title: t("deleteFaqTitle"),
    message: (f) => t("deleteFaqMessage", { question: f.question }),
    run: (f) => deleteFaq(kb.id, f.id),
    done: () => t("faqDeleted"),
    after: faqs.reload,
  });

  const columns: Column<Faq>[] = [
    { label: t("question"), rowHeader: true, class: "wrap", cell: (f) => f.question },
    { label: t("answer"), class: "wrap kb-answer", cell: (f) => f.answer },
    {
      label: t("labels"),
      cell: (f) =>
        f.labels.length
          ? f.labels.map((l) => (
              <span key={l.id} class="badge">
                {l.name}
              </span>
            ))
          : "—",
    },
    { label: t("hits"), cell: (f) => f.hitsCount },
  ];
  if (editable)
    columns.push(
      actionsColumn<Faq>(t("actions"), [
        editAction((f) => t("editNamed", { name: f.question }), setEditing),
        deleteAction((f) => t("deleteNamed", { name: f.question }), removal.ask),
      ]),
    );

  return (
    <section class="section" aria-labelledby="kb-faqs-title">
      <div class="section-head">
        <h2 id="kb-faqs-title">{t("faqs")}</h2>
        {editable && (
          <div class="row-actions">
            <Button onClick={() => setImporting(true)}>{t("import")}</Button>
            <Button variant="primary" onClick={() => setEditing("new")}>
              {t("addFaq")}
            </Button>
          </div>
        )}
      </div>
      <LabelsBar kb={kb} labels={labels} editable={editable} />
      <div class="kb-toolbar">
        <FilterField label={t("findFaq")} value={faqs.query} onFilter={faqs.filter} />
      </div>
      <PagedTable list={faqs} empty={t("noFaqs")} labelledBy="kb-faqs-title" columns={columns} />
      {editing && (
        <FaqForm
          kb={kb}
          faq={editing === "new" ? undefined : editing}
          labels={labels.data ?? []}
          onClose={() => setEditing(null)}
          onSaved={() => {
            toast(t("faqSaved"));
            faqs.reload();
          }}
        />
      )}
      {importing && (
        <FaqImport
          kb={kb}
          labels={labels.data ?? []}
          onClose={() => setImporting(false)}
          onImported={() => {
            faqs.reload();
            labels.reload();
          }}
        />
      )}
      {removal.dialog}
    </section>
  );
}
