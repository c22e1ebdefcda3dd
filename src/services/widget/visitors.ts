import type { z } from "@hono/zod-openapi";
import { and, desc, eq, exists, notExists, or, sql } from "drizzle-orm";
import type { Bindings, Db } from "../../env";
import { contactInboxes, contacts, conversations } from "../../db/schema";
import { ApiError, fieldError, unauthenticated } from "../../lib/errors";
import { isUuid, stableUuidv7, uuidv7 } from "../../lib/ids";
import type { ContactRow } from "../contacts";
import type { ConversationRow } from "../conversations";
import {
  identityMatches,
  readVisitorToken,
  secretMark,
  signVisitorToken,
  VISITOR_RENEWAL_S,
  VISITOR_TOKEN_TTL_S,
  type VisitorClaims,
} from "./tokens";
import { activeWebChat, identitySecret, type PublicWebChat } from "./web-chats";
import { type SessionBody, type VisitorConversation, visitorConversationRecord } from "../records/widget";
import { refreshContactCopies } from "../shards/contact-copies";
import { conversationDb, dataParts } from "../shards/parts";
import { firstAcrossParts, sqlOrder } from "../shards/parts-merge";
import { rowById } from "../../db/find";

/** How many of a visitor's conversations their session and the widget's list show. */
const VISITOR_CONVERSATIONS = 20;

/** The session request once parsed. */
export type SessionInput = z.output<typeof SessionBody>;

export interface Visitor {
  contactId: string;
  identified: boolean;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The visitor a request's `Authorization: Bearer <token>` names, for this web chat (401 otherwise). */
export async function visitorOf(env: Bindings, chat: PublicWebChat, header: string | undefined): Promise<Visitor> {
  const token = header?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  if (!token)
    throw unauthenticated("A visitor token is required: `Authorization: Bearer <token>` from the session endpoint.");
  const claims = await readVisitorToken(token, env.ENCRYPTION_KEY);
  if (!claims || claims.w !== chat.webChat.id) throw unauthenticated("Invalid visitor token.");
  if (claims.exp <= nowSeconds()) throw unauthenticated("The visitor token has expired; start a new session.");
  if (claims.idv) {
    // An identity stands only while the secret that vouched for it does: one replaced (leaked) ends its sessions.
    const sealed = chat.webChat.settings.identitySecretSealed;
    if (typeof sealed !== "string" || claims.k !== (await secretMark(sealed)))
      throw unauthenticated("The web chat's identity secret has changed; start a new session with a signed identity.");
  } else if (chat.webChat.accessType === "private") {
    // A token given while the web chat was public: making it private shuts anonymous visitors out at once.
    throw unauthenticated("This web chat is private: start a new session with an identity signed by the site.");
  }
  return { contactId: claims.c, identified: !!claims.idv };
}

/** The visitor's contact in this web chat's organization; null when it no longer exists. */
export async function visitorContact(data: Db, chat: PublicWebChat, visitor: Visitor): Promise<ContactRow | null> {
  const [contact] = await data
    .select()
    .from(contacts)
    .where(and(eq(contacts.id, visitor.contactId), eq(contacts.organizationId, chat.webChat.organizationId)));
  return contact ?? null;
}

/** The name operators see for the visitor ("" when the contact is gone). */
export async function visitorName(data: Db, visitor: Visitor): Promise<string> {
  const [contact] = await data.select({ name: contacts.name }).from(contacts).where(eq(contacts.id, visitor.contactId));
  return contact?.name ?? "";
}

/**
 * Starts or resumes a visitor's session (CONTRACT section 14). An identity signed by the business's
 * backend names a contact by `sourceId` (required by private web chats); otherwise a public web chat
 * renews a token it issued (even expired, within 30 days: a returning visitor keeps their
 * conversations) or creates an anonymous contact. Without `enableAnonymous` a new visitor must give
 * a name or an e-mail (the widget's pre-chat form).
 */
export async function startSession(env: Bindings, data: Db, chat: PublicWebChat, input: SessionInput) {
  const { webChat } = chat;
  const given = input.contact ?? {};
  let contact: ContactRow | null = null;
  let identified = false;
  // An identified token lapses with its identity (`identityExpiresAt`), not two hours later.
  let expiresAt = nowSeconds() + VISITOR_TOKEN_TTL_S;
  let mark: string | undefined;

  if (given.sourceId !== undefined || given.identityToken !== undefined) {
    if (!given.sourceId || !given.identityToken)
      throw fieldError("contact.identityToken", "An identity needs both sourceId and identityToken.");
    const secret = await identitySecret(env, chat);
    if (!secret) throw unauthenticated("This web chat has no identity secret; identities cannot be verified.");
    if (!(await identityMatches(secret, given.sourceId, given.identityToken, given.identityExpiresAt)))
      throw unauthenticated("The identity token does not match.");
    if (given.identityExpiresAt !== undefined && given.identityExpiresAt <= nowSeconds())
      throw unauthenticated("The identity token has expired.");
    contact = await identifiedContact(env, data, chat, given.sourceId, given);
    identified = true;
    if (given.identityExpiresAt !== undefined) expiresAt = Math.min(expiresAt, given.identityExpiresAt);
    // A string: the secret was just read from it.
    mark = await secretMark(webChat.settings.identitySecretSealed as string);
  } else if (webChat.accessType === "private") {
    throw unauthenticated(
      "This web chat is private: the visitor needs an identity signed by the site (contact.sourceId and " +
        "contact.identityToken).",
    );
  } else if (input.token) {
    const claims = await readVisitorToken(input.token, env.ENCRYPTION_KEY);
    if (claims && claims.w === webChat.id && claims.exp + VISITOR_RENEWAL_S > nowSeconds() && !claims.idv)
      contact = await contactOf(data, chat, claims.c);
    if (contact && (given.name || given.email)) contact = await updateContact(env, data, contact, given);
  }
  if (!contact) {
    // New web chats store true; one stored before that default, without the flag, keeps its form (docs/decisions.md,
    // "Widget defaults").
    const anonymous = webChat.settings.enableAnonymous ?? false;
    if (!anonymous && !given.name?.trim() && !given.email)
      throw fieldError("contact.email", "This web chat asks visitors for a name or an e-mail address first.");
    contact = (await createContact(data, chat, { name: given.name, email: given.email })).contact;
  }
  const claims: VisitorClaims = {
    w: webChat.id,
    c: contact.id,
    exp: expiresAt,
    ...(identified ? { idv: true, k: mark } : {}),
  };
  return {
    token: await signVisitorToken(claims, env.ENCRYPTION_KEY),
    expiresAt: String(claims.exp * 1000),
    contact: { id: contact.id, name: contact.name, email: contact.email ?? null, identified },
    conversations: await visitorConversations(await dataParts(env, webChat.organizationId), chat, contact.id),
  };
}

async function contactOf(data: Db, chat: PublicWebChat, id: string): Promise<ContactRow | null> {
  return rowById(id, () =>
    data
      .select()
      .from(contacts)
      .where(and(eq(contacts.id, id), eq(contacts.organizationId, chat.webChat.organizationId))),
  );
}

/**
 * A new contact of the web chat's inbox. Given an `id` (derived, see identifiedContact) it may exist already: then
 * nothing is written but the inbox link, and `made` is false.
 */
async function createContact(
  data: Db,
  chat: PublicWebChat,
  values: { name?: string; email?: string; sourceId?: string },
  id = uuidv7(),
): Promise<{ contact: ContactRow; made: boolean }> {
  const now = Date.now();
  const row = {
    id,
    organizationId: chat.webChat.organizationId,
    name: values.name?.trim() || `Visitor ${id.slice(-4).toUpperCase()}`,
    email: values.email ?? null,
    sourceId: values.sourceId ?? null,
    // The contact's metadata is the business's custom fields: the web chat it came by is its inbox link.
    metadata: {},
    createdAt: now,
    updatedAt: now,
  };
  const [inserted] = await data.batch([
    data.insert(contacts).values(row).onConflictDoNothing().returning({ id: contacts.id }),
    data.insert(contactInboxes).values({ contactId: id, inboxId: chat.inboxId }).onConflictDoNothing(),
  ]);
  return { contact: (await contactOf(data, chat, id))!, made: inserted.length > 0 };
}

async function updateContact(
  env: Bindings,
  data: Db,
  contact: ContactRow,
  given: { name?: string; email?: string },
): Promise<ContactRow> {
  const changes = {
    ...(given.name?.trim() ? { name: given.name.trim() } : {}),
    ...(given.email ? { email: given.email } : {}),
  };
  if (!Object.keys(changes).length) return contact;
  await data
    .update(contacts)
    .set({ ...changes, updatedAt: Date.now() })
    .where(eq(contacts.id, contact.id));
  await refreshContactCopies(env, contact.organizationId, contact.id);
  return { ...contact, ...changes };
}

/**
 * The contact with this sourceId of this web chat's inbox, or of no inbox (one the business made through the API),
 * the oldest should there be several; else a new one. A contact of another inbox only is not taken, as the channel
 * intake does: a Telegram chat id, a Slack user id or another site's user id may be the same string for another
 * person, whose contact the visitor would read and rename.
 */
async function identifiedContact(
  env: Bindings,
  data: Db,
  chat: PublicWebChat,
  sourceId: string,
  given: { name?: string; email?: string },
): Promise<ContactRow> {
  const linksOf = (inboxId?: string) =>
    data
      .select({ one: sql`1` })
      .from(contactInboxes)
      .where(and(eq(contactInboxes.contactId, contacts.id), inboxId ? eq(contactInboxes.inboxId, inboxId) : undefined));
  const [found] = await data
    .select()
    .from(contacts)
    .where(
      and(
        eq(contacts.organizationId, chat.webChat.organizationId),
        eq(contacts.sourceId, sourceId),
        or(exists(linksOf(chat.inboxId)), notExists(linksOf())),
      ),
    )
    .orderBy(contacts.createdAt)
    .limit(1);
  if (found) {
    await data.insert(contactInboxes).values({ contactId: found.id, inboxId: chat.inboxId }).onConflictDoNothing();
    return updateContact(env, data, found, given);
  }
  // Two first sessions at once (two tabs) would both find none: the id derived from the inbox and the sourceId makes
  // the second insert meet the first's row (the index on sourceId is not unique), and that session takes it.
  const id = await stableUuidv7(`web-contact\n${chat.inboxId}\n${sourceId}`, 0);
  const { contact, made } = await createContact(data, chat, { ...given, sourceId }, id);
  return made ? contact : updateContact(env, data, contact, given);
}

/**
 * The visitor's conversations in an inbox on one data part, latest first (at most 20): a query not yet run, read
 * through `conversations_contact_idx` however many conversations the organization has
 * (test/services/conversation-list-plans.test.ts).
 */
export const visitorConversationsIn = (data: Db, organizationId: string, inboxId: string, contactId: string) =>
  data
    .select()
    .from(conversations)
    .where(
      and(
        eq(conversations.inboxId, inboxId),
        eq(conversations.contactId, contactId),
        eq(conversations.organizationId, organizationId),
      ),
    )
    .orderBy(desc(conversations.createdAt))
    .limit(VISITOR_CONVERSATIONS);

/** The visitor's conversations in this web chat's inbox, latest first (at most 20), from each data part. */
export async function visitorConversations(
  parts: Db[],
  chat: PublicWebChat,
  contactId: string,
): Promise<VisitorConversation[]> {
  const rows = await firstAcrossParts(
    parts,
    (data) => visitorConversationsIn(data, chat.webChat.organizationId, chat.inboxId, contactId),
    sqlOrder((row) => [row.createdAt], true),
    VISITOR_CONVERSATIONS,
  );
  return rows.map(visitorConversationRecord);
}

/** One of the visitor's conversations in this web chat, else 404 (another visitor's is simply not found). */
export async function visitorConversation(
  env: Bindings,
  chat: PublicWebChat,
  visitor: Visitor,
  id: string,
): Promise<ConversationRow> {
  const row = isUuid(id)
    ? (
        await (
          await conversationDb(env, chat.webChat.organizationId, id)
        )
          .select()
          .from(conversations)
          .where(
            and(
              eq(conversations.id, id),
              eq(conversations.inboxId, chat.inboxId),
              eq(conversations.contactId, visitor.contactId),
            ),
          )
      )[0]
    : undefined;
  if (!row) throw new ApiError(404, "not_found", "Conversation not found.");
  return row;
}

/**
 * The active web chat and the conversation of it that the bearer token's visitor owns (404 / 401 / 403 otherwise):
 * what a visitor's live stream is opened with, and asked again while it stays open (visitorStreamLost).
 */
export async function visitorsOwnConversation(
  env: Bindings,
  db: Db,
  webChatId: string,
  conversationId: string,
  authorization: string | undefined,
) {
  const chat = await activeWebChat(db, webChatId);
  const visitor = await visitorOf(env, chat, authorization);
  return { chat, conversation: await visitorConversation(env, chat, visitor, conversationId) };
}

/**
 * Why a visitor's open live stream must end now, or null: what its request was checked for, asked again (the web chat
 * still open, the token still standing, the conversation still theirs). A stream stays open for minutes, and a web
 * chat made private, closed, or given a new identity secret must not go on speaking to a token it now refuses.
 */
export async function visitorStreamLost(
  ...opened: Parameters<typeof visitorsOwnConversation>
): Promise<{ code: string; detail: string } | null> {
  try {
    await visitorsOwnConversation(...opened);
    return null;
  } catch (err) {
    if (err instanceof ApiError && err.status < 500) return { code: err.code, detail: err.detail };
    throw err;
  }
}
