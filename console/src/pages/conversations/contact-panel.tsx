import { signal } from "@preact/signals";
import { useId } from "preact/hooks";
import { ErrorAlert, Loading, Button, useResource } from "../../components";
import { BASE, followLink } from "../../shell/router";
import { can } from "../../shell/session";
import { contactConversations, getContact } from "../contacts/api";
import { Avatar, ContactFacts, ConversationLinks, CustomFields, Fact, inboxOf } from "../contacts/parts";
import { t as contactText } from "../contacts/shared-strings";
import type { Conversation } from "./api";
import { nameOf } from "./channel-parts";
import { t } from "./contact-strings";

/** How many of the contact's other conversations the panel lists (the inbox, filtered to them, has all). */
const OTHERS_SHOWN = 5;

/**
 * Whether the panel is open: the member's choice while the console is open (it stays as they left it from one
 * conversation to the next), else open where the transcript has room and closed on a phone, where it would push the
 * messages a screen down.
 */
const chosen = signal<boolean | null>(null);
const roomy = () => matchMedia("(min-width: 901px)").matches;

const channelName = (type: string) => (type === "web" ? t("web") : type === "api" ? t("api") : nameOf(type));

/**
 * Who the member is talking to, behind a disclosure button: name, avatar and channel (from the conversation record),
 * with `contact.view` also the contact's e-mail, phone, tags and custom fields and a link to their page, and their
 * other conversations (which `conversation.view` already lets the member list).
 */
export function ContactPanel({ c }: { c: Conversation }) {
  const id = useId();
  const open = chosen.value ?? roomy();
  return (
    <div class="contact-panel">
      <Button
        class="contact-panel-toggle"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => (chosen.value = !open)}
      >
        <span aria-hidden="true" class="contact-panel-mark">
          {open ? "▾" : "▸"}
        </span>
        {t("showContact")}
      </Button>
      <section id={id} class="contact-panel-body" aria-label={t("showContact")} hidden={!open}>
        {open && <PanelBody c={c} />}
      </section>
    </div>
  );
}

function PanelBody({ c }: { c: Conversation }) {
  const contact = c.contact;
  return (
    <>
      <div class="contact-card">
        <Avatar name={contact?.name || t("anonymous")} src={contact?.avatar ?? null} />
        <div>
          <p class="contact-panel-name">
            <strong>{contact?.name || t("anonymous")}</strong>
          </p>
          <dl class="contact-facts">
            <Fact term={t("channel")}>
              {t("channelOf", { inbox: c.inbox.name, type: channelName(c.inbox.channelType) })}
            </Fact>
          </dl>
        </div>
      </div>
      {!contact ? (
        <p class="muted small">{t("anonymousHint")}</p>
      ) : (
        <>
          {can("contact.view") && <ContactDetails contactId={contact.id} />}
          <OtherConversations contactId={contact.id} current={c.id} />
        </>
      )}
    </>
  );
}

/** What only `contact.view` may read: e-mail, phone, tags and the business's custom fields. */
function ContactDetails({ contactId }: { contactId: string }) {
  const contact = useResource(() => getContact(contactId), [contactId]);
  const d = contact.data;
  if (!d) return contact.error ? <ErrorAlert error={contact.error} /> : <Loading />;
  return (
    <>
      <ContactFacts contact={d} />
      <h3 class="contact-panel-head">{contactText("customFields")}</h3>
      <CustomFields metadata={d.metadata} />
      <p>
        <a href={`${BASE}/contacts/${d.id}`} onClick={followLink}>
          {t("openContact")}
        </a>
      </p>
    </>
  );
}

/** The contact's latest conversations other than this one, and the inbox filtered to all of theirs. */
function OtherConversations({ contactId, current }: { contactId: string; current: string }) {
  const list = useResource(() => contactConversations(contactId, OTHERS_SHOWN + 1), [contactId]);
  const others = list.data?.results.filter((x) => x.id !== current).slice(0, OTHERS_SHOWN);
  return (
    <>
      <h3 class="contact-panel-head">{t("otherConversations")}</h3>
      <ErrorAlert error={list.error} />
      {others === undefined ? (
        list.loading && <Loading />
      ) : others.length === 0 ? (
        <p class="muted small">{t("noOtherConversations")}</p>
      ) : (
        <>
          <ConversationLinks rows={others} />
          <p>
            <a href={inboxOf(contactId)} onClick={followLink}>
              {t("allTheirConversations")}
            </a>
          </p>
        </>
      )}
    </>
  );
}
