import {
  Button,
  editDeleteColumn,
  ListSearch,
  ResourceList,
  useCrudList,
  useResource,
  type Column,
} from "../../components";
import { useState } from "preact/hooks";
import { deleteFaq, listFaqs, listLabels, PAGE_SIZE, type Faq, type KnowledgeBase } from "./api";
import { FaqForm } from "./faq-form";
import { FaqImport } from "./faq-import";
import { LabelsBar } from "./labels";
import { t } from "./strings";

/** The base's FAQs and the labels they (and files) carry: find, add, edit, delete, import. */
export function FaqsSection({ kb, editable }: { kb: KnowledgeBase; editable: boolean }) {
  const crud = useCrudList((page, search) => listFaqs(kb.id, page, search), [kb.id]);
  const labels = useResource(() => listLabels(kb.id), [kb.id]);
  const [importing, setImporting] = useState(false);

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
      editDeleteColumn<Faq>(t("actions"), crud, {
        edit: (f) => t("editNamed", { name: f.question }),
        delete: (f) => t("deleteNamed", { name: f.question }),
      }),
    );

  return (
    <section class="section" aria-labelledby="kb-faqs-title">
      <div class="section-head">
        <h2 id="kb-faqs-title">{t("faqs")}</h2>
        {editable && (
          <div class="row-actions">
            <Button onClick={() => setImporting(true)}>{t("import")}</Button>
            <Button variant="primary" onClick={() => crud.setEditing("new")}>
              {t("addFaq")}
            </Button>
          </div>
        )}
      </div>
      <LabelsBar kb={kb} labels={labels} editable={editable} />
      <div class="kb-toolbar">
        <ListSearch search={crud} label={t("findFaq")} />
      </div>
      <ResourceList
        crud={crud}
        labelledBy="kb-faqs-title"
        columns={columns}
        empty={crud.search ? t("noFaqMatch") : t("noFaqs")}
        pageSize={PAGE_SIZE}
        form={(faq, close, saved) => (
          <FaqForm kb={kb} faq={faq ?? undefined} labels={labels.data ?? []} onClose={close} onSaved={saved} />
        )}
        saved={() => t("faqSaved")}
        remove={{
          title: t("deleteFaqTitle"),
          message: (f) => t("deleteFaqMessage", { question: f.question }),
          run: (f) => deleteFaq(kb.id, f.id),
          done: () => t("faqDeleted"),
        }}
      />
      {importing && (
        <FaqImport
          kb={kb}
          labels={labels.data ?? []}
          onClose={() => setImporting(false)}
          onImported={() => {
            crud.list.reload();
            labels.reload();
          }}
        />
      )}
    </section>
  );
}
