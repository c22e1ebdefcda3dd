// What the contacts page and a conversation's contact panel both show: the avatar, how to reach the contact, the custom
// fields, the links to conversations.
import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import { formatTime } from "../../i18n";
import { BASE, followLink } from "../../shell/router";
import type { Contact, Conversation } from "./api";
import { t } from "./shared-strings";

/**
 * The contact's picture, or their initials when there is none (or it does not load: an http: address the console's
 * CSP refuses, a link gone stale). Decorative: the name is always written beside it.
 */
export function Avatar({
  name,
  src,
  size = "medium",
}: {
  name: string;
  src: string | null;
  size?: "small" | "medium";
}) {
  const [failed, setFailed] = useState(false);
  // The first letter of the first two words that start with one ("Customer 21" is "C", "王小明" is "王").
  const initials =
    name
      .trim()
      .split(/\s+/)
      .map((w) => [...w][0] ?? "")
      .filter((c) => /\p{L}/u.test(c))
      .slice(0, 2)
      .join("")
      .toUpperCase() || "?";
  return (
    <span class={`contact-avatar ${size}`} aria-hidden="true">
      {src && !failed ? <img src={src} alt="" onError={() => setFailed(true)} /> : initials}
    </span>
  );
}

/** One term of a contact's facts and its value. */
export function Fact({ term, children }: { term: string; children: ComponentChildren }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** How to reach the contact (e-mail and phone, as links) and their tags; `children` are further facts. */
export function ContactFacts({ contact, children }: { contact: Contact; children?: ComponentChildren }) {
  const { email, phoneNumber, tags } = contact;
  return (
    <dl class="contact-facts">
      <Fact term={t("email")}>{email ? <a href={`mailto:${email}`}>{email}</a> : "—"}</Fact>
      <Fact term={t("phoneNumber")}>
        {phoneNumber ? <a href={`tel:${phoneNumber.replace(/[^\d+]/g, "")}`}>{phoneNumber}</a> : "—"}
      </Fact>
      <Fact term={t("tags")}>
        {tags.length ? (
          <ul class="chip-row">
            {tags.map((tag) => (
              <li key={tag.id} class="badge">
                {tag.name}
              </li>
            ))}
          </ul>
        ) : (
          "—"
        )}
      </Fact>
      {children}
    </dl>
  );
}

/** A custom field's value as text: strings as they are, anything else (numbers, lists, objects) as JSON. */
export const valueText = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

/** The contact's custom fields (its `metadata`), name beside value. */
export function CustomFields({ metadata }: { metadata: Record<string, unknown> }) {
  const entries = Object.entries(metadata);
  if (!entries.length) return <p class="muted">{t("noCustomFields")}</p>;
  return (
    <dl class="contact-facts contact-fields">
      {entries.map(([key, value]) => (
        <div key={key}>
          <dt>{key}</dt>
          <dd>{valueText(value)}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Conversations as links into the inbox: the title, its status and the time of its last message. */
export function ConversationLinks({ rows }: { rows: Conversation[] }) {
  return (
    <ul class="contact-conversations">
      {rows.map((c) => (
        <li key={c.id} data-contact-conversation={c.id}>
          <a href={`${BASE}/conversations/${c.id}`} onClick={followLink}>
            {c.title || t("untitled")}
          </a>{" "}
          <span class={`badge state-${c.status}`}>{t(`status_${c.status}`)}</span>{" "}
          <span class="muted small">
            {c.inbox.name} · <time>{formatTime(c.lastMessageCreatedAt ?? c.createdAt)}</time>
          </span>
        </li>
      ))}
    </ul>
  );
}

/** The inbox filtered to one contact's conversations (the inbox reads `?contact=`). */
export const inboxOf = (contactId: string) => `${BASE}/conversations?contact=${encodeURIComponent(contactId)}`;
