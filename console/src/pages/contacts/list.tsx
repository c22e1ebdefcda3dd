import { type Column, ResourceListPage, useCrudList, editDeleteColumn } from "../../components";
import { formatDate } from "../../i18n";
import { BASE, followLink } from "../../shell/router";
import { can } from "../../shell/session";
import { PAGE_SIZE, deleteContact, listContacts, type Contact } from "./api";
import { ContactForm } from "./contact-form";
import { Avatar } from "./parts";
import { t } from "./strings";

/** The organization's contacts, newest first, searched and paged by the API; each opens its own page. */
export function ContactList({ organizationId }: { organizationId: string }) {
  const crud = useCrudList(listContacts, [organizationId]);
  const manage = can("contact.manage");
  const columns: Column<Contact>[] = [
    {
      label: t("name"),
      rowHeader: true,
      cell: (c) => (
        <span class="contact-name">
          <Avatar name={c.name} src={c.avatar} size="small" />
          <a href={`${BASE}/contacts/${c.id}`} onClick={followLink}>
            {c.name}
          </a>
        </span>
      ),
    },
    { label: t("email"), class: "contact-email", cell: (c) => c.email || "—" },
    { label: t("phoneNumber"), class: "nowrap", cell: (c) => c.phoneNumber || "—" },
    { label: t("inboxes"), cell: (c) => c.inboxes.map((i) => i.name).join(", ") || "—" },
    {
      label: t("created"),
      class: "nowrap",
      cell: (c) => <time dateTime={new Date(Number(c.createdAt)).toISOString()}>{formatDate(c.createdAt)}</time>,
    },
  ];
  if (manage)
    columns.push(
      // Side by side: a row's two buttons on two lines would double its height.
      {
        ...editDeleteColumn<Contact>(t("actions"), crud, {
          edit: (c) => t("editNamed", { name: c.name }),
          delete: (c) => t("deleteNamed", { name: c.name }),
        }),
        class: "contact-actions",
      },
    );
  return (
    <ResourceListPage
      title={t("title")}
      action={manage && { text: t("newContact"), run: () => crud.setEditing("new") }}
      intro={t("intro")}
      search={{ label: t("search"), hint: t("searchHint") }}
      crud={crud}
      labelledBy="contacts-title"
      columns={columns}
      empty={crud.search ? t("noMatch") : t("noContacts")}
      pageSize={PAGE_SIZE}
      form={(contact, close, saved) => (
        <ContactForm contact={contact} organizationId={organizationId} onClose={close} onSaved={saved} />
      )}
      saved={(c, created) => t(created ? "createdToast" : "saved", { name: c.name })}
      remove={{
        title: t("deleteContact"),
        message: (c) => t("deleteMessage", { name: c.name }),
        run: (c) => deleteContact(c.id),
        done: (c) => t("deleted", { name: c.name }),
      }}
    />
  );
}
