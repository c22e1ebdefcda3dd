import { useContext, useState } from "preact/hooks";
import { choicesOf } from "../../api/choices";
import { ApiProblem } from "../../api/client";
import {
  fieldsOf,
  CheckList,
  pickedIds,
  FormProblem,
  TextAreaField,
  TextField,
  FormDialog,
  useResource,
} from "../../components";
import { createContact, updateContact, type Contact, type ContactWrite } from "./api";
import { FieldsEditor, metadataOf, rowsOf } from "./fields-editor";
import { t } from "./strings";

/**
 * Creates a contact, or edits `contact`: name, e-mail, phone, picture, tags, inboxes, custom fields and knowledge
 * limits, in one write. The inboxes are offered when the member may list them; otherwise the contact's are shown and
 * left as they are.
 */
export function ContactForm({
  contact,
  organizationId,
  onClose,
  onSaved,
}: {
  contact: Contact | null;
  organizationId: string;
  onClose: () => void;
  onSaved: (c: Contact, created: boolean) => void;
}) {
  const [rows, setRows] = useState(() => rowsOf(contact?.metadata));
  const inboxes = useResource(() => choicesOf("inboxes", organizationId), [organizationId]);
  const pickable = inboxes.data !== undefined && inboxes.data !== null;
  const save = async (form: FormData) => {
    const text = (name: string) => String(form.get(name) ?? "").trim();
    const body: ContactWrite = {
      name: text("name"),
      // An emptied field clears it (the API reads "" as no e-mail; a phone is cleared with null).
      email: text("email"),
      phoneNumber: text("phoneNumber") || null,
      avatar: text("avatar") || null,
      // Each named once, in the order written.
      tags: [
        ...new Set(
          text("tags")
            .split(/[,，]/)
            .map((tag) => tag.trim())
            .filter(Boolean),
        ),
      ],
      metadata: metadataOf(rows),
      // Sent only when changed: what an integration set stays as it was, to the byte.
      ...(text("queryMetadata") === queryMetadataText(contact)
        ? {}
        : { queryMetadata: queryMetadataOf(text("queryMetadata")) }),
      ...(pickable ? { inboxes: pickedIds(form, "inboxes") } : {}),
    };
    const saved = contact
      ? await updateContact(contact.id, body)
      : await createContact({ ...body, name: text("name") });
    onSaved(saved, !contact);
    onClose();
  };
  const field = fieldsOf(contact, t);
  return (
    <FormDialog title={contact ? t("editContact") : t("newContact")} submit={t("save")} save={save} onClose={onClose}>
      <TextField {...field("name")} required maxLength={255} autoComplete="off" />
      <TextField {...field("email")} type="email" maxLength={254} autoComplete="off" />
      <TextField {...field("phoneNumber")} type="tel" maxLength={50} autoComplete="off" />
      <TextField {...field("avatar")} inputMode="url" maxLength={2048} hint={t("avatarHint")} autoComplete="off" />
      <TextField
        label={t("tags")}
        name="tags"
        defaultValue={contact?.tags.map((tag) => tag.name).join(", ")}
        hint={t("tagsHint")}
        autoComplete="off"
      />
      <CheckList
        legend={t("inboxes")}
        hint={t("inboxesHint")}
        name="inboxes"
        choices={inboxes}
        chosen={contact?.inboxes}
        disabled={!pickable}
        empty={t("noInboxes")}
      />
      <FieldsEditor rows={rows} onChange={setRows} />
      <QueryMetadataField text={queryMetadataText(contact)} />
    </FormDialog>
  );
}

/** The contact's knowledge limits as the form shows them: the API's JSON, indented; empty for none. */
const queryMetadataText = (contact: Contact | null) =>
  contact?.queryMetadata && Object.keys(contact.queryMetadata).length
    ? JSON.stringify(contact.queryMetadata, null, 2)
    : "";

/** The knowledge limits as typed: empty is none (the assistant searches everything); JSON that does not parse is
 * refused here, before anything is sent. The API checks the rest of its shape. */
function queryMetadataOf(typed: string): ContactWrite["queryMetadata"] {
  if (!typed) return {};
  try {
    return JSON.parse(typed);
  } catch {
    throw new ApiProblem(400, t("queryMetadataJson"), "invalid", { queryMetadata: [t("queryMetadataJson")] });
  }
}

/**
 * The contact's `queryMetadata` as the API's JSON, under a disclosure (an integration usually sets it; the page shows
 * it in words). The API's refusals of its inner fields show here too.
 */
function QueryMetadataField({ text }: { text: string }) {
  const problem = useContext(FormProblem);
  const error = Object.entries(problem?.errors ?? {}).find(([field]) => field.startsWith("queryMetadata"))?.[1][0];
  return (
    <details class="contact-query-metadata" open={!!error}>
      <summary>{t("queryMetadataField")}</summary>
      <TextAreaField
        label={t("queryMetadataField")}
        name="queryMetadata"
        defaultValue={text}
        hint={t("queryMetadataHint")}
        error={error}
        spellcheck={false}
        rows={6}
        class="code"
      />
    </details>
  );
}
