import { useState } from "preact/hooks";
import { choicesOf } from "../../api/choices";
import { CheckList, pickedIds } from "../../components/check-list";
import { TextField, fieldsOf } from "../../components/field";
import { FormDialog } from "../../components/form-dialog";
import { useResource } from "../../components/use-resource";
import { createContact, updateContact, type Contact, type ContactWrite } from "./api";
import { FieldsEditor, metadataOf, rowsOf } from "./fields-editor";
import { t } from "./strings";

/**
 * Creates a contact, or edits `contact`: name, e-mail, phone, picture, tags, inboxes and custom fields, in one write.
 * The inboxes are offered when the member may list them; otherwise the contact's are shown and left as they are.
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
        options={inboxes.data ?? undefined}
        chosen={contact?.inboxes}
        loading={inboxes.loading}
        disabled={!pickable}
        empty={t("noInboxes")}
      />
      <FieldsEditor rows={rows} onChange={setRows} />
    </FormDialog>
  );
}
