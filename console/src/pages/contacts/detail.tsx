import { useState } from "preact/hooks";
import { ErrorAlert, Loading, Button, useRemoval, PageHeader, toast, useResource } from "../../components";
import { formatTime } from "../../i18n";
import { BASE, followLink, navigate } from "../../shell/router";
import { can } from "../../shell/session";
import { contactConversations, deleteContact, getContact, type Contact } from "./api";
import { ContactForm } from "./contact-form";
import { Avatar, ContactFacts, ConversationLinks, CustomFields, Fact, inboxOf } from "./parts";
import { QueryMetadataView } from "./query-metadata";
import { t } from "./strings";

/** How many of the contact's conversations the page lists; the inbox, filtered to them, has the rest. */
const CONVERSATIONS_SHOWN = 20;

/** One contact: who they are, their custom fields, what knowledge they may query, and their conversations. */
export function ContactDetail({ id, organizationId }: { id: string; organizationId: string }) {
  const contact = useResource(() => getContact(id), [organizationId, id]);
  const manage = can("contact.manage");
  const [editing, setEditing] = useState(false);
  const removal = useRemoval<Contact>({
    title: t("deleteContact"),
    message: (c) => t("deleteMessage", { name: c.name }),
    run: (c) => deleteContact(c.id),
    done: (c) => t("deleted", { name: c.name }),
    after: async () => navigate("/contacts"),
  });
  const c = contact.data;
  return (
    <>
      <p class="back">
        <a href={`${BASE}/contacts`} onClick={followLink}>
          {t("allContacts")}
        </a>
      </p>
      <PageHeader title={c?.name ?? t("title")}>
        {manage && c && <Button onClick={() => setEditing(true)}>{t("edit")}</Button>}
        {manage && c && (
          <Button variant="danger" onClick={() => removal.ask(c)}>
            {t("delete")}
          </Button>
        )}
      </PageHeader>
      <ErrorAlert error={contact.error} />
      {!c ? (
        contact.loading && <Loading />
      ) : (
        <>
          <section class="section contact-card" aria-labelledby="contact-details-title">
            <Avatar name={c.name} src={c.avatar} />
            <div>
              <h2 id="contact-details-title" class="sr-only">
                {t("details")}
              </h2>
              <Facts c={c} />
            </div>
          </section>
          <section class="section" aria-labelledby="contact-fields-title">
            <h2 id="contact-fields-title">{t("customFields")}</h2>
            <p class="muted small">{t("customFieldsIntro")}</p>
            <CustomFields metadata={c.metadata} />
          </section>
          <section class="section" aria-labelledby="contact-knowledge-title">
            <h2 id="contact-knowledge-title">{t("knowledge")}</h2>
            <p class="muted small">{t("knowledgeIntro")}</p>
            <QueryMetadataView value={c.queryMetadata} organizationId={organizationId} />
          </section>
          {can("conversation.view") && <Conversations contactId={c.id} organizationId={organizationId} />}
        </>
      )}
      {editing && c && (
        <ContactForm
          contact={c}
          organizationId={organizationId}
          onClose={() => setEditing(false)}
          onSaved={(saved) => {
            toast(t("saved", { name: saved.name }));
            void contact.reload();
          }}
        />
      )}
      {removal.dialog}
    </>
  );
}

/** The contact's own fields, as a list of terms. */
function Facts({ c }: { c: Contact }) {
  const credentials = [c.hasMcpCredentials && t("credentialsMcp"), c.hasApiCredentials && t("credentialsApi")].filter(
    Boolean,
  );
  return (
    <ContactFacts contact={c}>
      <Fact term={t("inboxes")}>{c.inboxes.map((i) => i.name).join(", ") || "—"}</Fact>
      {c.sourceId && (
        <Fact term={t("sourceId")}>
          <code>{c.sourceId}</code>
        </Fact>
      )}
      <Fact term={t("credentials")}>{credentials.join(", ") || t("none")}</Fact>
      <Fact term={t("created")}>
        <time>{formatTime(c.createdAt)}</time>
      </Fact>
      <Fact term={t("updated")}>
        <time>{formatTime(c.updatedAt)}</time>
      </Fact>
    </ContactFacts>
  );
}

/** The contact's latest conversations, each a link into the inbox, and the inbox filtered to all of them. */
function Conversations({ contactId, organizationId }: { contactId: string; organizationId: string }) {
  const list = useResource(() => contactConversations(contactId, CONVERSATIONS_SHOWN), [organizationId, contactId]);
  return (
    <section class="section" aria-labelledby="contact-conversations-title">
      <h2 id="contact-conversations-title">{t("conversations")}</h2>
      <ErrorAlert error={list.error} />
      {list.data === undefined ? (
        list.loading && <Loading />
      ) : list.data.results.length === 0 ? (
        <p class="muted">{t("noConversations")}</p>
      ) : (
        <>
          <ConversationLinks rows={list.data.results} />
          <p>
            <a href={inboxOf(contactId)} onClick={followLink}>
              {t("allInInbox")}
            </a>
          </p>
        </>
      )}
    </section>
  );
}
