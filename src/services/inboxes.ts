import { and, count, desc, eq, getTableColumns, ne, not, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Bindings, Db } from "../env";
import {
  chatbots,
  conversations,
  inboxes,
  webChats,
  webhooks,
  type InboxAssignment,
  type WebChatSettings,
} from "../db/schema";
import { mapPage, type PageWindow, paginate } from "../db/paginate";
import { ApiError, badRequest, conflict, fieldError, notFound } from "../lib/errors";
import { isUuid, uuidv7 } from "../lib/ids";
import { contains, inList } from "../lib/sql";
import { liveAssignment, noSuchTeam, requireTeamOf, teamExists } from "./assignment/settings";
import { type InboxInput, inboxRecord } from "./records/inboxes";
import { webChatRecord } from "./records/web-chats";
import { businessHoursProblem, type BusinessHours } from "./business-hours";
import { forgetInboxConversations } from "./conversation/forget";
import { writePurges } from "./purges";
import { addByKey, onEachPart } from "./shards/parts-sum";
import { rowById } from "../db/find";
import { authorize, orgAccess, requirePermission, type Ctx, type OrgAccess } from "./access";
import { getVisibleChatbot } from "./chatbots/visibility";
import { inboxChannelLeaving } from "./channels/disconnect";

export type InboxRow = typeof inboxes.$inferSelect;
export type WebChatRow = typeof webChats.$inferSelect;

/** An inbox with the names it shows: its assistant and, for a web inbox, its web chat. */
export interface InboxView {
  inbox: InboxRow;
  chatbot: { id: string; name: string } | null;
  channel: { id: string; name: string } | null;
  unreadConversationsCount: number;
}

/**
 * Inboxes joined with their assistant and web chat, their assignment as it holds now (`liveAssignment`: no team gone);
 * callers add the organization filter.
 */
const selectInboxRows = (db: Db) =>
  db
    .select({
      inbox: { ...getTableColumns(inboxes), assignment: liveAssignment },
      chatbot: { id: chatbots.id, name: chatbots.name },
      channel: { id: webChats.id, name: webChats.name },
    })
    .from(inboxes)
    .leftJoin(chatbots, eq(chatbots.id, inboxes.chatbotId))
    .leftJoin(webChats, eq(webChats.inboxId, inboxes.id));

/**
 * The inboxes' views, in their order: each with how many of its conversations hold messages no agent has read yet,
 * counted apart from the inboxes (docs/scale.md §5 step 4) and given by the caller, who reads them beside the rows.
 */
function withUnreadCounts(
  rows: Awaited<ReturnType<ReturnType<typeof selectInboxRows>["all"]>>,
  unread: Map<string, number>,
): InboxView[] {
  return rows.map((r) => ({ ...r, unreadConversationsCount: unread.get(r.inbox.id) ?? 0 }));
}

/**
 * How many conversations of each of the organization's inboxes (of `inboxIds`, when given) hold messages no agent has
 * read yet, over its data parts (`parts`, added): read from `conversations_unread_idx`, which holds only those, so the
 * whole organization's cost no more than one page's. `> 0` is written out, not bound: SQLite uses a partial index only
 * for a condition it can see.
 */
async function unreadCounts(parts: Db[], organizationId: string, inboxIds?: string[]): Promise<Map<string, number>> {
  const counts = await onEachPart(parts, (data) =>
    data
      .select({ inboxId: conversations.inboxId, n: count() })
      .from(conversations)
      .where(
        and(
          eq(conversations.organizationId, organizationId),
          inboxIds ? inList(conversations.inboxId, inboxIds) : undefined,
          sql`${conversations.unreadCount} > 0`,
        ),
      )
      .groupBy(conversations.inboxId),
  );
  return new Map(addByKey(counts, ["inboxId"]).map((c) => [c.inboxId, c.n]));
}

/** One of the organization's inboxes (`db`), with its unread count (over `parts`, its data parts), or null. */
export async function getInbox(
  db: Db,
  parts: Db[],
  organizationId: string,
  id: string,
  extra?: SQL,
): Promise<InboxView | null> {
  if (!isUuid(id)) return null;
  const [row, unread] = await Promise.all([
    findInbox(db, organizationId, id, extra),
    unreadCounts(parts, organizationId, [id]),
  ]);
  return row ? withUnreadCounts([row], unread)[0] : null;
}

/** One of the organization's inboxes with the names it shows, without its unread count (`db` alone), or undefined. */
export async function findInbox(db: Db, organizationId: string, id: string, extra?: SQL) {
  if (!isUuid(id)) return undefined;
  const [row] = await selectInboxRows(db).where(
    and(eq(inboxes.id, id), eq(inboxes.organizationId, organizationId), extra),
  );
  return row;
}

/** The organization an assistant belongs to (null: no such assistant, or a personal one). */
export async function chatbotOrganization(db: Db, chatbotId: string): Promise<string | null> {
  if (!isUuid(chatbotId)) return null;
  const [row] = await db
    .select({ organizationId: chatbots.organizationId })
    .from(chatbots)
    .where(eq(chatbots.id, chatbotId));
  return row?.organizationId ?? null;
}

/**
 * Where the caller creates an inbox, with `inbox.manage` checked there (CONTRACT section 6): an inbox with an
 * assistant belongs to the assistant's organization, whatever organization the request otherwise acts in, and the
 * assistant must be one the caller sees (400 naming `chatbot` otherwise: one hidden from them does not exist for
 * them); one without, the organization the request acts in.
 */
export async function inboxCreatorAccess(c: Ctx, chatbotId: string | null): Promise<OrgAccess> {
  if (!chatbotId) return authorize(c, "inbox.manage");
  const noSuchChatbot = () => fieldError("chatbot", "No such assistant in your organizations.");
  const organizationId = await chatbotOrganization(c.var.db, chatbotId);
  if (!organizationId) throw noSuchChatbot();
  const access = await orgAccess(c, organizationId).catch((err) => {
    throw err instanceof ApiError && err.status === 404 ? noSuchChatbot() : err;
  });
  requirePermission(access, "inbox.manage");
  if (!(await getVisibleChatbot(c.var.db, access, c.var.principal.userId, chatbotId))) throw noSuchChatbot();
  return access;
}

/**
 * An inbox's assistant must be one of the organization's that the caller sees (400 naming `chatbot` otherwise), as
 * for a new inbox: one hidden from them does not exist for them, nor should an inbox of theirs answer with it.
 */
export async function requireVisibleChatbotOf(
  db: Db,
  access: OrgAccess,
  userId: string,
  chatbotId: string,
): Promise<void> {
  const row = await getVisibleChatbot(db, access, userId, chatbotId);
  if (row?.organizationId !== access.organizationId)
    throw fieldError("chatbot", "No such assistant in this organization.");
}

/**
 * Settings of a new web chat: visitors chat at once (no pre-chat form), speech off, no greeting or
 * starters, default themes. `enableAnonymous` is stored, so web chats created before it was the
 * default keep their form (docs/decisions.md, "Widget defaults").
 */
export const defaultWebChatSettings = (): WebChatSettings => ({
  enableAnonymous: true,
  enableSpeech: false,
  displayGreeting: "",
  displayConversationStarters: [],
  theme: {},
  darkTheme: {},
});

/** Statements creating an inbox and, for a `web` inbox, its web chat (run them in one batch). */
export function inboxInserts(
  db: Db,
  values: {
    organizationId: string;
    name: string;
    channelType: InboxRow["channelType"];
    chatbotId: string | null;
    businessHours?: BusinessHours | null;
    assignment?: InboxAssignment | null;
  },
) {
  if (values.businessHours) requireUsableHours(values.businessHours);
  const id = uuidv7();
  const statements: [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]] = [db.insert(inboxes).values({ ...values, id })];
  if (values.channelType !== "web") return { id, statements };
  statements.push(
    db.insert(webChats).values({
      organizationId: values.organizationId,
      inboxId: id,
      name: values.name,
      accessType: "public",
      settings: defaultWebChatSettings(),
    }),
  );
  return { id, statements };
}

/**
 * Creates an inbox (and, for a `web` inbox, its web chat) in one batch; the new inbox as read back. Its team is checked
 * in that batch (`teamExists`): the inbox is deleted again, its web chat by its key, when the team is no group of the
 * organization (400, nothing written), so a group deleted since any earlier read is never named.
 */
export async function createInbox(db: Db, parts: Db[], values: Parameters<typeof inboxInserts>[1]): Promise<InboxView> {
  const { id, statements } = inboxInserts(db, values);
  const teamId = values.assignment?.teamId;
  if (!teamId) await db.batch(statements);
  else {
    const undo = db
      .delete(inboxes)
      .where(and(eq(inboxes.id, id), not(teamExists(db, values.organizationId, teamId))))
      .returning({ id: inboxes.id });
    const [undone] = (await db.batch([...statements, undo])).at(-1) as { id: string }[];
    if (undone) throw noSuchTeam("assignment.teamId");
  }
  return (await getInbox(db, parts, values.organizationId, id))!;
}

/** A web chat with the inbox it belongs to. */
export interface WebChatView {
  webChat: WebChatRow;
  inbox: { id: string; name: string };
}

/** Web chats joined with their inbox; callers add the organization filter. */
export const selectWebChats = (db: Db) =>
  db
    .select({ webChat: webChats, inbox: { id: inboxes.id, name: inboxes.name } })
    .from(webChats)
    .innerJoin(inboxes, eq(inboxes.id, webChats.inboxId));

export async function getWebChat(db: Db, organizationId: string, id: string): Promise<WebChatView | null> {
  return rowById(id, () =>
    selectWebChats(db).where(and(eq(webChats.id, id), eq(webChats.organizationId, organizationId))),
  );
}

/** Another web chat than `webChatId` serves `domain` (its claim verified). */
export const domainServedElsewhere = (domain: string, webChatId: string | null) =>
  and(
    sql`json_extract(${webChats.settings}, '$.customDomain.domain') = ${domain}`,
    sql`json_extract(${webChats.settings}, '$.customDomain.status') = 'active'`,
    webChatId ? ne(webChats.id, webChatId) : undefined,
  );

/**
 * A custom domain serves one web chat only, across all organizations: 409 when another web chat's claim of it is
 * verified. Claims not yet verified do not hold it, or anyone could keep a domain from its owner by claiming it
 * first: the TXT record decides (docs/decisions.md, "Custom domains").
 */
export async function requireDomainFree(db: Db, domain: string, webChatId: string | null): Promise<void> {
  const [taken] = await db.select({ id: webChats.id }).from(webChats).where(domainServedElsewhere(domain, webChatId));
  if (taken) throw conflict("This custom domain is already used by another web chat.");
}

/** 400 naming what makes business hours unusable (an unknown time zone, a period closing before it opens). */
export function requireUsableHours(hours: BusinessHours) {
  const problem = businessHoursProblem(hours);
  if (problem)
    throw fieldError(`businessHours.${problem.split(":")[0]}`, problem.slice(problem.indexOf(":") + 1).trim());
}

/** A page of the organization's inboxes, newest first, by channel type, assistant or name (see getInbox). */
export async function listInboxes(
  db: Db,
  parts: Db[],
  organizationId: string,
  q: { channelType?: InboxRow["channelType"]; chatbot?: string; query?: string },
  window: PageWindow,
) {
  const where = and(
    eq(inboxes.organizationId, organizationId),
    q.channelType ? eq(inboxes.channelType, q.channelType) : undefined,
    q.chatbot ? eq(inboxes.chatbotId, q.chatbot) : undefined,
    q.query ? contains(inboxes.name, q.query) : undefined,
  );
  const [page, unread] = await Promise.all([
    paginate(window, db.select({ n: count() }).from(inboxes).where(where), ({ limit, offset }) =>
      selectInboxRows(db).where(where).orderBy(desc(inboxes.createdAt), desc(inboxes.id)).limit(limit).offset(offset),
    ),
    unreadCounts(parts, organizationId),
  ]);
  return mapPage({ ...page, items: withUnreadCounts(page.items, unread) }, inboxRecord);
}

/** An inbox holding conversations with messages no agent has read yet: how many. */
export interface UnreadInbox {
  id: string;
  name: string;
  count: number;
}

/**
 * The organization's inboxes holding conversations with messages no agent has read yet, by name, each with how many,
 * and how many in all (the counts over `parts`, its data parts, the names from `db`). What the console's navigation
 * and inbox count for any member who may read conversations, `inbox.view` or not (docs/decisions.md, "Unread counts
 * and notifications").
 */
export async function unreadInboxes(
  db: Db,
  parts: Db[],
  organizationId: string,
): Promise<{ count: number; inboxes: UnreadInbox[] }> {
  const unread = await unreadCounts(parts, organizationId);
  if (!unread.size) return { count: 0, inboxes: [] };
  const named = await db
    .select({ id: inboxes.id, name: inboxes.name })
    .from(inboxes)
    .where(and(eq(inboxes.organizationId, organizationId), inList(inboxes.id, [...unread.keys()])));
  // A conversation of an inbox deleted meanwhile (its conversations are forgotten after it) is not counted.
  const listed = named
    .map((i) => ({ ...i, count: unread.get(i.id)! }))
    .sort((a, b) => a.name.localeCompare(b.name) || (a.id < b.id ? -1 : 1));
  return { count: listed.reduce((n, i) => n + i.count, 0), inboxes: listed };
}

/** PUT and PATCH: fields left out stay as they are; `channelType` cannot change. */
export async function updateInbox(
  db: Db,
  parts: Db[],
  access: OrgAccess,
  userId: string,
  id: string,
  body: InboxInput,
) {
  const { organizationId } = access;
  const view = await getInbox(db, parts, organizationId, id);
  if (!view) throw notFound();
  if (body.channelType !== undefined && body.channelType !== view.inbox.channelType) {
    throw fieldError("channelType", "Cannot be changed after creation.");
  }
  const chatbotChanges = body.chatbot !== undefined && (body.chatbot?.id ?? null) !== view.inbox.chatbotId;
  if (view.inbox.isDefault && chatbotChanges)
    throw fieldError("chatbot", "An assistant's default inbox stays with its assistant.");
  // The assistant it keeps may be one the caller does not see (an owner chose it): only a new one is checked.
  if (body.chatbot && chatbotChanges) await requireVisibleChatbotOf(db, access, userId, body.chatbot.id);
  const chatbotId = body.chatbot === undefined ? undefined : (body.chatbot?.id ?? null);
  if (body.businessHours) requireUsableHours(body.businessHours);
  const teamId = body.assignment?.teamId;
  const [written] = await db
    .update(inboxes)
    .set({
      name: body.name,
      chatbotId,
      businessHours: body.businessHours,
      assignment: body.assignment,
      updatedAt: Date.now(),
    })
    .where(
      and(
        eq(inboxes.id, id),
        eq(inboxes.organizationId, organizationId),
        teamId ? teamExists(db, organizationId, teamId) : undefined,
      ),
    )
    .returning({ id: inboxes.id });
  // Nothing written: no such team (400), or the inbox deleted since it was read.
  if (!written && teamId) await requireTeamOf(db, organizationId, teamId, "assignment.teamId");
  // A DELETE between the read above and this write (or the read below) leaves nothing to answer: it is gone.
  const updated = written && (await getInbox(db, parts, organizationId, id));
  if (!updated) throw notFound();
  return inboxRecord(updated);
}

/**
 * Deletes an inbox and its web chat (an assistant's default inbox goes only with its assistant); answers the web chat
 * removed, if any, and `leavePlatform`: its channel's row went with it, yet what connect registered on the platform
 * (a Telegram bot's webhook) stays until asked, so the caller runs this once the answer is given, as a disconnect
 * asks (channels/disconnect.ts; a refusal is logged, never undoes the delete). The data plane (`data`) first: the
 * purges and the conversations named to forget; then the control rows (`db`); then the purges again.
 */
export async function deleteInbox(
  env: Bindings,
  db: Db,
  parts: Db[],
  organizationId: string,
  inboxId: string,
): Promise<{ webChat: { id: string } | null; leavePlatform: () => Promise<void> }> {
  const view = await findInbox(db, organizationId, inboxId);
  if (!view) throw notFound();
  if (view.inbox.isDefault)
    throw badRequest("An assistant's default inbox is deleted with its assistant.", undefined, "default_inbox");
  const id = view.inbox.id;
  const leavePlatform = await inboxChannelLeaving(env, db, organizationId, id);
  // Its webhooks go with it in `DB`, so their deliveries are purged too.
  const hooks = await db.select({ id: webhooks.id }).from(webhooks).where(eq(webhooks.inboxId, id));
  const purge = [
    { organizationId, kind: "inbox" as const, id },
    ...hooks.map((hook) => ({ organizationId, kind: "webhook" as const, id: hook.id })),
  ];
  await writePurges(parts, purge);
  // While the keys cascade, the delete takes the conversations: they are named first.
  for (const data of parts) await forgetInboxConversations(data, id);
  await db.batch([
    db.delete(webChats).where(eq(webChats.inboxId, id)),
    db.delete(inboxes).where(and(eq(inboxes.id, id), eq(inboxes.organizationId, organizationId))),
  ]);
  // Again once the inbox is gone: the housekeeping may have run the first before, and a writer that still found the
  // inbox wrote its rows after that run (docs/decisions.md, "A deleted label leaves no link").
  await writePurges(parts, purge);
  return { webChat: view.channel, leavePlatform };
}

/** A page of the organization's web chats, newest first, those of one inbox when given. */
export async function listWebChats(db: Db, organizationId: string, inboxId: string | undefined, window: PageWindow) {
  const where = and(eq(webChats.organizationId, organizationId), inboxId ? eq(webChats.inboxId, inboxId) : undefined);
  const page = await paginate(window, db.select({ n: count() }).from(webChats).where(where), ({ limit, offset }) =>
    selectWebChats(db).where(where).orderBy(desc(webChats.createdAt), desc(webChats.id)).limit(limit).offset(offset),
  );
  return mapPage(page, webChatRecord);
}

/** The inbox and assistant of one of the organization's web chats (400 naming `webChat` otherwise). */
export async function requireWebChatOf(db: Db, organizationId: string, webChatId: string) {
  const [chat] = await db
    .select({ inboxId: webChats.inboxId, chatbotId: inboxes.chatbotId })
    .from(webChats)
    .innerJoin(inboxes, eq(inboxes.id, webChats.inboxId))
    .where(and(eq(webChats.id, webChatId), eq(webChats.organizationId, organizationId)));
  if (!chat) throw fieldError("webChat", "No such web chat in your organization.");
  return chat;
}
