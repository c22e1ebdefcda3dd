import { createFaq, updateFaq, type Faq, type KnowledgeBase, type Label } from "./api";
import { fieldsOf, TextAreaField, FormDialog, CheckList, TextField } from "../../components";
import { t } from "./strings";

/** Adds an FAQ (`faq` absent) or changes one: question, answer and the labels it carries. */
export function FaqForm({
  kb,
  faq,
  labels,
  onClose,
  onSaved,
}: {
  kb: KnowledgeBase;
  faq?: Faq;
  labels: Label[];
  onClose: () => void;
  onSaved: (saved: Faq) => void;
}) {
  const save = async (form: FormData) => {
    const body = {
      question: String(form.get("question") ?? "").trim(),
      answer: String(form.get("answer") ?? ""),
      labels: form.getAll("labels").map((id) => ({ id: String(id) })),
    };
    onSaved(await (faq ? updateFaq(kb.id, faq.id, body) : createFaq(kb.id, body)));
    onClose();
  };
  const field = fieldsOf(faq, t);
  return (
    <FormDialog title={faq ? t("editFaq") : t("addFaq")} adding={!faq} save={save} onClose={onClose}>
      <TextField {...field("question")} required maxLength={10_000} />
      <TextAreaField {...field("answer")} required maxLength={100_000} rows={5} />
      {labels.length > 0 && (
        <CheckList legend={t("labels")} name="labels" options={labels} chosen={faq?.labels} empty="" />
      )}
    </FormDialog>
  );
}
