// Creating, changing and deleting an assistant with its links (groups, knowledge bases, tools, skills).
import { and, eq, notInArray, type SQL, type SQLWrapper } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Bindings, Db } from "../../env";
import {
  chatbotGroups,
  chatbotKnowledgeBases,
  chatbots,
  inboxes,
  knowledgeBases,
  skills,
  tools,
  webhooks,
} from "../../db/schema";
import { uuidv7 } from "../../lib/ids";
import { chunk } from "../../lib/sql";
import { chatbotToolStatements } from "../tools/chatbot-tools";
import { chatbotSkillStatements } from "../skills/write";
import { linkStatements, linksOf } from "../links";
import type { ChatbotRow } from "./visibility";
import type { ChatbotColumns } from "./rules";
import type { ShownLinks } from "./views";
import { forgetInboxConversations } from "../conversation/forget";
import { writePurges } from "../purges";
import { dataParts } from "../shards/parts";
import { type ChatbotQuota, pastQuota, takeBackInbox, takeBackPastQuota } from "./quota";

const linkInserts = (db: Db, chatbotId: string, groupIds: string[], now = Date.now()) =>
  chunk(groupIds, 20).map((part) =>
    db
      .insert(chatbotGroups)
      .values(part.map((groupId) => ({ id: uuidv7(), chatbotId, groupId, createdAt: now })))
      .onConflictDoNothing(),
  );

const knowledgeBaseLinks = (db: Db, chatbotId: string, ids: string[], replace: boolean | SQLWrapper) =>
  linkStatements(db, linksOf(chatbotKnowledgeBases, "chatbotId", "knowledgeBaseId"), chatbotId, ids, replace);

/**
 * Creates the assistant, its default inbox (`<name> API`, channel `api`) in `inboxOrganizationId`
 * and its links in one batch. With a `quota` (requireChatbotQuota's), that batch takes them back when the assistant
 * is past the limit (others created at the same time took the room) and this throws the same 403 as the check.
 */
export async function createChatbot(
  db: Db,
  values: ChatbotColumns & Pick<ChatbotRow, "name" | "largeLanguageModelId" | "createdById" | "organizationId">,
  inboxOrganizationId: string,
  { groupIds = [], knowledgeBaseIds = [], toolIds = [], skillIds = [] }: ChatbotLinkIds,
  quota: ChatbotQuota | null,
): Promise<ChatbotRow> {
  const id = uuidv7();
  const inboxId = uuidv7();
  const insert = db
    .insert(chatbots)
    .values({ ...values, id })
    .returning();
  const inbox = db.insert(inboxes).values({
    id: inboxId,
    organizationId: inboxOrganizationId,
    name: `${values.name} API`,
    channelType: "api",
    chatbotId: id,
    isDefault: true,
  });
  const links = [
    ...linkInserts(db, id, groupIds),
    ...knowledgeBaseLinks(db, id, knowledgeBaseIds, false),
    ...chatbotToolStatements(db, id, toolIds, false),
    ...chatbotSkillStatements(db, id, skillIds, false),
  ];
  const takeBack = quota ? [takeBackPastQuota(db, quota, id), takeBackInbox(db, inboxId, id)] : [];
  const [[row], , ...after] = await db.batch([insert, inbox, ...links, ...takeBack]);
  if (quota && (after[links.length] as { id: string }[]).length) throw await pastQuota(db, quota);
  return row;
}

/** An assistant's links a body gives (each list replaces the links of its kind; a list left out keeps them). */
export interface ChatbotLinkIds {
  groupIds?: string[];
  knowledgeBaseIds?: string[];
  toolIds?: string[];
  skillIds?: string[];
}

/**
 * Updates the columns and replaces the links given (kept links keep their id): every group link, and the links to the
 * knowledge bases, tools and skills its record shows the caller (`shown`), so links to others stay.
 */
export async function updateChatbot(
  db: Db,
  id: string,
  values: ChatbotColumns,
  { groupIds, knowledgeBaseIds, toolIds, skillIds }: ChatbotLinkIds = {},
  shown?: ShownLinks,
): Promise<ChatbotRow> {
  const update = db
    .update(chatbots)
    .set({ ...values, updatedAt: Date.now() })
    .where(eq(chatbots.id, id))
    .returning();
  const links: BatchItem<"sqlite">[] = groupIds
    ? [
        db
          .delete(chatbotGroups)
          .where(
            and(
              eq(chatbotGroups.chatbotId, id),
              groupIds.length ? notInArray(chatbotGroups.groupId, groupIds) : undefined,
            ),
          ),
        ...linkInserts(db, id, groupIds),
      ]
    : [];
  const within = <T extends SQLiteTable & { id: SQLiteColumn }>(table: T, condition: SQL | undefined) =>
    condition
      ? db
          .select({ id: table.id })
          .from(table as SQLiteTable)
          .where(condition)
      : true;
  if (knowledgeBaseIds)
    links.push(...knowledgeBaseLinks(db, id, knowledgeBaseIds, within(knowledgeBases, shown?.knowledgeBases)));
  if (toolIds) links.push(...chatbotToolStatements(db, id, toolIds, within(tools, shown?.tools)));
  if (skillIds) links.push(...chatbotSkillStatements(db, id, skillIds, within(skills, shown?.skills)));
  const [[row]] = await db.batch([update, ...links]);
  return row;
}

/**
 * Deletes the assistant with its default inbox (and that inbox's conversations); other inboxes stay, without
 * assistant. Its data-plane rows, its default inbox's and that inbox's webhooks' are purged (services/purges.ts): the
 * purges and the conversations named to forget in each part of the data plane of the organization hosting it first,
 * then the control rows (`db`), then the purges again. The host is the default inbox's organization: a personal
 * assistant has none of its own, and its creator may delete it while acting in another organization.
 */
export async function deleteChatbot(env: Bindings, db: Db, chatbot: Pick<ChatbotRow, "id" | "organizationId">) {
  const { id } = chatbot;
  const [inbox] = await db
    .select({ id: inboxes.id, organizationId: inboxes.organizationId })
    .from(inboxes)
    .where(and(eq(inboxes.chatbotId, id), eq(inboxes.isDefault, true)));
  const organizationId = inbox?.organizationId ?? chatbot.organizationId;
  const parts = organizationId ? await dataParts(env, organizationId) : [];
  const hooks = inbox ? await db.select({ id: webhooks.id }).from(webhooks).where(eq(webhooks.inboxId, inbox.id)) : [];
  const purge = [
    { organizationId, kind: "chatbot" as const, id },
    ...(inbox ? [{ organizationId, kind: "inbox" as const, id: inbox.id }] : []),
    ...hooks.map((hook) => ({ organizationId, kind: "webhook" as const, id: hook.id })),
  ];
  await writePurges(parts, purge);
  // While the keys cascade, the inbox's delete takes its conversations: they are named first.
  if (inbox) for (const data of parts) await forgetInboxConversations(data, inbox.id);
  await db.batch([
    db.delete(inboxes).where(and(eq(inboxes.chatbotId, id), eq(inboxes.isDefault, true))),
    db.delete(chatbots).where(eq(chatbots.id, id)),
  ]);
  // Again once the rows are gone: a writer that found them after the housekeeping ran the first wrote after that run.
  await writePurges(parts, purge);
}
