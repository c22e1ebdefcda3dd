import { and, asc, count, desc, eq, inArray, isNull, notInArray, or, sql, type SQL } from "drizzle-orm";
import { unionAll } from "drizzle-orm/sqlite-core";
import type { BatchItem } from "drizzle-orm/batch";
import { batch, prepared, rowMapper } from "../db/prepared";
import type { Db } from "../env";
import { chatbotGroups, chatbotKnowledgeBases, chatbots, contacts, conversations, groupMembers, groups, inboxes, knowledgeBases, models, organizations, users } from "../db/schema";
import { fieldError, forbidden, notFound } from "../lib/errors";
import { isUuid, uuidv7 } from "../lib/ids";
import { chunk, inChunks } from "../lib/sql";
import { settingsCache } from "../lib/ttl-cache";
import { can, requirePermission, type OrgAccess } from "./access";
import { getModel, type ModelKind, type ModelRow } from "./models";
import { planOf, type PlanSettings } from "./plans";
import { knowledgeBasesOfChatbot, type KnowledgeBaseRow } from "./knowledge-bases";
import { chatbotToolLinks, chatbotToolStatements } from "./tools/chatbot-tools";
import { chatbotSkillLinks } from "./skills/chatbot-skills";
import { chatbotSkillStatements } from "./skills/write";

export type ChatbotRow = typeof chatbots.$inferSelect;
type ConversationRow = typeof conversations.$inferSelect;
type ContactRow = typeof contacts.$inferSelect;
type ChatbotColumns = Partial<typeof chatbots.$inferInsert>;
type IdName = { id: string; name: string };

/** Assistants given to one of the member's groups (chatbot_groups). */
const reachableThroughGroups = (memberId: string) =>
  sql`${chatbots.id} in (select ${chatbotGroups.chatbotId} from ${chatbotGroups} inner join ${groupMembers} on ${groupMembers.groupId} = ${chatbotGroups.groupId} where ${groupMembers.memberId} = ${memberId})`;

/**
 * The assistants the caller sees (CONTRACT section 4): their own personal assistants, and in the
 * organization of `access` all of them for owners; for other members those they created and,
 * with `chatbot.view`, those given to one of their groups.
 */
export function visibleChatbotsCondition(access: OrgAccess, userId: string): SQL {
  return or(...visibleChatbotParts(access, userId))!;
}

/** The two disjoint parts of what the caller sees: their personal assistants, and those of the organization. */
function visibleChatbotParts(access: OrgAccess, userId: string): [SQL, SQL] {
  const personal = and(isNull(chatbots.organizationId), eq(chatbots.createdById, userId))!;
  const inOrganization = eq(chatbots.organizationId, access.organizationId);
  if (access.isOwner) return [personal, inOrganization];
  const mine = eq(chatbots.createdById, userId);
  const reach = can(access, "chatbot.view") ? or(mine, reachableThroughGroups(access.memberId)) : mine;
  return [personal, and(inOrganization, reach)!];
}

/**
 * A page of the assistants the caller sees that match `filter`, newest first, and how many match,
 * in one D1 round trip. Each part is read by its own index in creation order (chatbots_org_created_idx,
 * chatbots_personal_idx) and merged (UNION ALL): no scan and no sort of the organization's assistants,
 * which an OR of the two parts costs (about 10 ms a page at 10,000; docs/decisions.md).
 */
export async function listVisibleChatbots(db: Db, access: OrgAccess, userId: string, filter: SQL | undefined, page: { limit: number; offset: number }) {
  const [personal, inOrganization] = visibleChatbotParts(access, userId).map((part) => and(part, filter));
  const [[personalCount], [organizationCount], rows] = await db.batch([
    db.select({ n: count() }).from(chatbots).where(personal),
    db.select({ n: count() }).from(chatbots).where(inOrganization),
    unionAll(db.select().from(chatbots).where(personal), db.select().from(chatbots).where(inOrganization))
      .orderBy(desc(chatbots.createdAt), desc(chatbots.id))
      .limit(page.limit)
      .offset(page.offset),
  ]);
  return { count: personalCount.n + organizationCount.n, rows };
}

/** The assistant if the caller may see it, else null (it does not exist for them). */
export async function getVisibleChatbot(db: Db, access: OrgAccess, userId: string, id: string): Promise<ChatbotRow | null> {
  if (!isUuid(id)) return null;
  const [row] = await db.select().from(chatbots).where(and(eq(chatbots.id, id), visibleChatbotsCondition(access, userId)));
  return row ?? null;
}

/** What a reply needs of an assistant, as the caller may see it. */
export interface AssistantForReply {
  chatbot: ChatbotRow;
  model: ModelRow | null;
  /** Its default inbox in the caller's organization (API conversations start there). */
  defaultInboxId: string | null;
  knowledgeBases: KnowledgeBaseRow[];
}

/**
 * Assistants as replies need them, remembered for 2 seconds per isolate (like API keys and access;
 * docs/decisions.md, "Per-isolate caches"), by organization, user and assistant since visibility
 * depends on all three (null: not visible). Every API write other than conversation traffic clears
 * them in this isolate at once (a settings cache: `forgetOnWrite` in app.ts).
 */
const assistants = settingsCache<AssistantForReply | null>();

/**
 * Everything a completion reads before it can ask the model, in at most one D1 round trip: the
 * assistant if the caller may see it, its language model, default inbox and knowledge bases (unless
 * remembered); with `conversationId`, that conversation of the organization; with `contactId`, that
 * contact of the organization, else the conversation's own contact. Only plain single-table
 * selects: a D1 batch returns rows keyed by column name, so joined tables' same-named columns would
 * collide.
 */
export async function readForReply(db: Db, access: OrgAccess, userId: string, id: string, turn: { conversationId?: string; contactId?: string }) {
  if (!isUuid(id)) return null;
  const org = access.organizationId;
  const turnReads: D1PreparedStatement[] = [];
  if (turn.conversationId) turnReads.push(conversationInOrganization(db, { id: turn.conversationId, organizationId: org }));
  if (turn.contactId) turnReads.push(contactInOrganization(db, { id: turn.contactId, organizationId: org }));
  else if (turn.conversationId) turnReads.push(contactOfConversation(db, { conversationId: turn.conversationId, organizationId: org }));
  // Two D1 calls at once when neither is remembered (every 2 s), else one or none.
  const [assistant, rows] = await Promise.all([
    assistants.remember(`${org}:${userId}:${id}`, async () => {
      const [[chatbot], [model], [inbox], knowledgeBases] = (await db.batch([
        db.select().from(chatbots).where(and(eq(chatbots.id, id), visibleChatbotsCondition(access, userId))),
        db.select().from(models).where(inArray(models.id, db.select({ id: chatbots.largeLanguageModelId }).from(chatbots).where(eq(chatbots.id, id)))),
        db.select({ id: inboxes.id }).from(inboxes).where(and(eq(inboxes.chatbotId, id), eq(inboxes.isDefault, true), eq(inboxes.organizationId, org))),
        knowledgeBasesOfChatbot(db, id),
      ])) as [ChatbotRow[], ModelRow[], { id: string }[], KnowledgeBaseRow[]];
      return chatbot ? { chatbot, model: model ?? null, defaultInboxId: inbox?.id ?? null, knowledgeBases } : null;
    }),
    turnReads.length ? readTurn(db, org, turn, turnReads) : { conversation: null, contact: null },
  ]);
  if (!assistant) return null;
  return { ...assistant, ...rows };
}

type TurnRows = { conversation: ConversationRow | null; contact: ContactRow | null };
const turnKey = (organizationId: string, turn: { conversationId?: string; contactId?: string }) => `${organizationId}:${turn.conversationId ?? ""}:${turn.contactId ?? ""}`;

/**
 * A turn's conversation and contact, remembered for 2 seconds per isolate like assistants when both
 * were found (a settings cache; writes to contacts, conversations and web chat visitors clear it
 * too: `forgetOnWrite` in app.ts). The conversation row may lag behind the messages since: its
 * object brings it up to date from its own writes (durable-objects/conversation.ts, #load), and the
 * route keeps the row each turn leaves (`rememberTurnConversation`); the contact is as read.
 */
const turns = settingsCache<TurnRows>();
export const forgetTurns = () => turns.clear();

async function readTurn(db: Db, organizationId: string, turn: { conversationId?: string; contactId?: string }, reads: D1PreparedStatement[]): Promise<TurnRows> {
  let rows: TurnRows = { conversation: null, contact: null };
  const remembered = await turns.remember(turnKey(organizationId, turn), async () => {
    const results = await batch(db, reads);
    const [conversation] = turn.conversationId ? results.shift()!.results.map(conversationRow) : [];
    const [contact] = results.shift()!.results.map(contactRow);
    rows = { conversation: conversation ?? null, contact: contact ?? null };
    // Only what was found is remembered.
    const contactFound = !!rows.contact || (!turn.contactId && !!rows.conversation && !rows.conversation.contactId);
    return (!turn.conversationId || rows.conversation) && contactFound ? rows : undefined;
  });
  return remembered ?? rows;
}

/** The conversation as a turn left it, for the next turn of this caller to start from (see `turns`). */
export function rememberTurnConversation(organizationId: string, turn: { conversationId: string; contactId?: string }, conversation: ConversationRow) {
  const key = turnKey(organizationId, turn);
  const rows = turns.get(key);
  if (rows) turns.replace(key, { ...rows, conversation });
}

// A completion's reads of its conversation and contact, built once per isolate (db/prepared.ts).
const inOrganization = <T extends typeof conversations | typeof contacts>(table: T) =>
  prepared<{ id: string; organizationId: string }>((db) => db.select().from(table as typeof contacts).where(and(eq(table.id, sql.placeholder("id")), eq(table.organizationId, sql.placeholder("organizationId")))));
const conversationInOrganization = inOrganization(conversations);
const contactInOrganization = inOrganization(contacts);
const contactOfConversation = prepared<{ conversationId: string; organizationId: string }>((db) => {
  const [conversation, organization] = [sql.placeholder("conversationId"), sql.placeholder("organizationId")];
  const contactId = sql`(select ${conversations.contactId} from ${conversations} where ${conversations.id} = ${conversation} and ${conversations.organizationId} = ${organization})`;
  return db.select().from(contacts).where(and(sql`${contacts.id} = ${contactId}`, eq(contacts.organizationId, organization)));
});
const conversationRow = rowMapper(conversations);
const contactRow = rowMapper(contacts);

/** For writes: 403 without `chatbot.manage`, then 404 when the caller cannot see the assistant. */
export async function getChatbotForUpdate(db: Db, access: OrgAccess, userId: string, id: string): Promise<ChatbotRow> {
  requirePermission(access, "chatbot.manage");
  const row = await getVisibleChatbot(db, access, userId, id);
  if (!row) throw notFound("Assistant not found.");
  return row;
}

/** Everything an assistant record shows besides its own columns. */
export interface ChatbotView {
  row: ChatbotRow;
  createdBy: IdName;
  largeLanguageModel: IdName;
  fallbackLargeLanguageModel: IdName | null;
  embeddingModel: IdName | null;
  rerankerModel: IdName | null;
  groups: IdName[];
  knowledgeBases: IdName[];
  defaultInbox: IdName | null;
  tools: IdName[];
  skills: IdName[];
  canManage: boolean;
}

export async function chatbotViews(db: Db, access: OrgAccess, rows: ChatbotRow[]): Promise<ChatbotView[]> {
  const botIds = rows.map((r) => r.id);
  const modelIds = rows.flatMap((r) => [r.largeLanguageModelId, r.fallbackLargeLanguageModelId, r.embeddingModelId, r.rerankerModelId]).filter((x): x is string => !!x);
  const [creators, modelNames, links, defaults, bases, toolLinks, skillLinks] = await Promise.all([
    inChunks(rows.map((r) => r.createdById), (ids) => db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, ids))),
    inChunks(modelIds, (ids) => db.select({ id: models.id, name: models.name }).from(models).where(inArray(models.id, ids))),
    inChunks(botIds, (ids) =>
      db
        .select({ chatbotId: chatbotGroups.chatbotId, id: groups.id, name: groups.name })
        .from(chatbotGroups)
        .innerJoin(groups, eq(groups.id, chatbotGroups.groupId))
        .where(inArray(chatbotGroups.chatbotId, ids))
        .orderBy(asc(sql`${groups.name} collate nocase`), asc(groups.id)),
    ),
    inChunks(botIds, (ids) =>
      db
        .select({ chatbotId: inboxes.chatbotId, id: inboxes.id, name: inboxes.name })
        .from(inboxes)
        .where(and(inArray(inboxes.chatbotId, ids), eq(inboxes.isDefault, true)))
        .orderBy(asc(inboxes.createdAt), asc(inboxes.id)),
    ),
    inChunks(botIds, (ids) =>
      db
        .select({ chatbotId: chatbotKnowledgeBases.chatbotId, id: knowledgeBases.id, name: knowledgeBases.name })
        .from(chatbotKnowledgeBases)
        .innerJoin(knowledgeBases, eq(knowledgeBases.id, chatbotKnowledgeBases.knowledgeBaseId))
        .where(inArray(chatbotKnowledgeBases.chatbotId, ids))
        .orderBy(asc(knowledgeBases.name), asc(knowledgeBases.id)),
    ),
    chatbotToolLinks(db, botIds),
    chatbotSkillLinks(db, botIds),
  ]);
  const names = new Map([...creators, ...modelNames].map((x) => [x.id, x.name]));
  const ref = (id: string | null) => (id ? { id, name: names.get(id) ?? "" } : null);
  const canManage = can(access, "chatbot.manage");
  return rows.map((row) => {
    const inbox = defaults.find((d) => d.chatbotId === row.id);
    return {
      row,
      createdBy: ref(row.createdById)!,
      largeLanguageModel: ref(row.largeLanguageModelId)!,
      fallbackLargeLanguageModel: ref(row.fallbackLargeLanguageModelId),
      embeddingModel: ref(row.embeddingModelId),
      rerankerModel: ref(row.rerankerModelId),
      groups: links.filter((l) => l.chatbotId === row.id).map(({ id, name }) => ({ id, name })),
      knowledgeBases: bases.filter((l) => l.chatbotId === row.id).map(({ id, name }) => ({ id, name })),
      defaultInbox: inbox ? { id: inbox.id, name: inbox.name } : null,
      tools: toolLinks.filter((l) => l.chatbotId === row.id).map(({ id, name }) => ({ id, name })),
      skills: skillLinks.filter((l) => l.chatbotId === row.id).map(({ id, name }) => ({ id, name })),
      canManage,
    };
  });
}

export const chatbotView = async (db: Db, access: OrgAccess, row: ChatbotRow) => (await chatbotViews(db, access, [row]))[0];

/** A create, PUT or PATCH body after validation; absent fields are left as they are. */
export interface ChatbotInput {
  name?: string;
  largeLanguageModel?: string;
  fallbackLargeLanguageModel?: string | null;
  embeddingModel?: string | null;
  rerankerModel?: string | null;
  rag?: string | null;
  builtInWorkflow?: string | null;
  instructions?: string | null;
  knowledgeBases?: { id: string }[] | null;
  toolkits?: { id: string }[] | null;
  tools?: { id: string }[] | null;
  skills?: { id: string }[] | null;
  groups?: { id: string }[] | null;
  replyMode?: ChatbotRow["replyMode"];
  template?: string | null;
  unanswerableTemplate?: string | null;
  outputMode?: ChatbotRow["outputMode"];
  rawOutputFormat?: Record<string, unknown> | null;
  databaseUrl?: string | null;
  databaseType?: string | null;
  includeTables?: Record<string, unknown> | null;
  agentMode?: ChatbotRow["agentMode"];
  numberOfRetrievedChunks?: number;
  enableEvaluation?: boolean;
  enableInLineCitations?: boolean;
}

/** Column values of the fields the body carries (`totalWordsCount` is counted, never written). */
export const chatbotColumns = (b: ChatbotInput): ChatbotColumns => ({
  name: b.name,
  largeLanguageModelId: b.largeLanguageModel,
  fallbackLargeLanguageModelId: b.fallbackLargeLanguageModel,
  embeddingModelId: b.embeddingModel,
  rerankerModelId: b.rerankerModel,
  ragId: b.rag,
  builtInWorkflowId: b.builtInWorkflow,
  instructions: b.instructions === null ? "" : b.instructions,
  replyMode: b.replyMode,
  template: b.template,
  unanswerableTemplate: b.unanswerableTemplate,
  outputMode: b.outputMode,
  rawOutputFormat: b.rawOutputFormat,
  databaseUrl: b.databaseUrl,
  databaseType: b.databaseType,
  includeTables: b.includeTables,
  agentMode: b.agentMode,
  numberOfRetrievedChunks: b.numberOfRetrievedChunks,
  enableEvaluation: b.enableEvaluation,
  enableInLineCitations: b.enableInLineCitations,
});

const MODEL_FIELDS = [
  ["largeLanguageModel", "llm", "large language"],
  ["fallbackLargeLanguageModel", "llm", "large language"],
  ["embeddingModel", "embedding", "embedding"],
  ["rerankerModel", "reranker", "reranker"],
] as const satisfies readonly (readonly [keyof ChatbotInput, ModelKind, string])[];

/**
 * Checks what the body refers to, 400 naming the field otherwise: models the organization may use,
 * groups of the organization (none for a personal assistant), and toolkits and tools, which this
 * service does not have yet (any id is unknown). Knowledge bases: `checkChatbotKnowledgeBases`. Non-owners may only add groups they belong to
 * (403). Returns the group ids when the body sets them.
 */
export async function checkChatbotReferences(
  db: Db,
  access: OrgAccess,
  personal: boolean,
  body: ChatbotInput,
  currentGroupIds: string[] = [],
): Promise<string[] | undefined> {
  const found = await Promise.all(
    MODEL_FIELDS.map(([field, kind]) => {
      const id = body[field] as string | null | undefined;
      return id ? getModel(db, access.organizationId, id, kind) : true;
    }),
  );
  const missing = MODEL_FIELDS.find((_, i) => !found[i]);
  if (missing) throw fieldError(missing[0], `No ${missing[2]} model with this id is available to the organization.`);
  for (const [field, noun] of [["toolkits", "toolkit"]] as const) {
    const first = body[field]?.[0];
    if (first) throw fieldError(field, `Unknown ${noun}: ${first.id}.`);
  }
  if (!body.groups) return body.groups === null ? [] : undefined;
  const wanted = [...new Set(body.groups.map((g) => g.id))];
  if (personal && wanted.length) throw fieldError("groups", "A personal assistant belongs to no organization and has no groups.");
  const known = await inChunks(wanted, (ids) =>
    db.select({ id: groups.id }).from(groups).where(and(eq(groups.organizationId, access.organizationId), inArray(groups.id, ids))),
  );
  const knownIds = new Set(known.map((g) => g.id));
  const unknown = wanted.filter((id) => !knownIds.has(id));
  if (unknown.length) throw fieldError("groups", `Not groups of this organization: ${unknown.slice(0, 5).join(", ")}.`);
  const added = wanted.filter((id) => !currentGroupIds.includes(id));
  if (!access.isOwner && added.some((id) => !access.groupIds.includes(id))) {
    throw forbidden("You can only give an assistant to groups you belong to.");
  }
  return wanted;
}

const JSON_SCHEMA_TYPES = new Set(["object", "array", "string", "number", "integer", "boolean", "null"]);
const isJsonSchema = (value: unknown) => {
  if (!value || typeof value !== "object" || Array.isArray(value)) return false;
  const type = (value as { type?: unknown }).type;
  const types = Array.isArray(type) ? type : [type];
  return types.length > 0 && types.every((t) => typeof t === "string" && JSON_SCHEMA_TYPES.has(t));
};

/** Rules across fields, checked on the assistant as it will be stored (create, PUT and PATCH). */
export function checkChatbotRules(bot: Pick<ChatbotRow, "replyMode" | "template" | "outputMode" | "rawOutputFormat" | "largeLanguageModelId" | "fallbackLargeLanguageModelId">) {
  if (bot.fallbackLargeLanguageModelId && bot.fallbackLargeLanguageModelId === bot.largeLanguageModelId) {
    throw fieldError("fallbackLargeLanguageModel", "Must differ from largeLanguageModel: a fallback answers when that model fails.");
  }
  if (bot.replyMode === "template" && !bot.template?.trim()) throw fieldError("template", "Required when replyMode is template.");
  if (bot.outputMode === "json_schema" && !isJsonSchema(bot.rawOutputFormat)) {
    throw fieldError("rawOutputFormat", 'Required with outputMode json_schema: a JSON Schema object with a "type".');
  }
}

/** Assistants counted against an organization's plan: its own and the personal ones it hosts. */
export async function countedChatbots(db: Db, organizationId: string): Promise<number> {
  const [{ n }] = await db
    .select({ n: count() })
    .from(chatbots)
    .where(
      or(
        eq(chatbots.organizationId, organizationId),
        and(
          isNull(chatbots.organizationId),
          sql`${chatbots.id} in (select ${inboxes.chatbotId} from ${inboxes} where ${inboxes.organizationId} = ${organizationId} and ${inboxes.isDefault} = 1)`,
        ),
      ),
    );
  return n;
}

/**
 * The plan's assistant quota, when the operator configured one (403 when reached, or when the plan
 * has lapsed). Personal assistants count against the organization that hosts their default inbox.
 */
export async function requireChatbotQuota(db: Db, organizationId: string, plans: PlanSettings, now = Date.now()) {
  if (!plans.configured) return;
  const [[org], n] = await Promise.all([
    db.select({ planId: organizations.planId, expiredAt: organizations.planExpiredAt }).from(organizations).where(eq(organizations.id, organizationId)),
    countedChatbots(db, organizationId),
  ]);
  const plan = planOf(plans, org.planId);
  if (org.expiredAt !== null && org.expiredAt <= now) throw forbidden("The organization's plan has expired; no assistant can be created.");
  if (plan.createChatbotLimit !== null && n >= plan.createChatbotLimit) {
    throw forbidden(`The ${plan.planName} plan allows ${plan.createChatbotLimit} assistants and the organization has ${n}; delete one or change the plan.`);
  }
}

const linkInserts = (db: Db, chatbotId: string, groupIds: string[], now = Date.now()) =>
  chunk(groupIds, 20).map((part) =>
    db.insert(chatbotGroups).values(part.map((groupId) => ({ id: uuidv7(), chatbotId, groupId, createdAt: now }))).onConflictDoNothing(),
  );

const knowledgeBaseLinks = (db: Db, chatbotId: string, ids: string[]) =>
  chunk(ids, 40).map((part) => db.insert(chatbotKnowledgeBases).values(part.map((knowledgeBaseId) => ({ chatbotId, knowledgeBaseId }))).onConflictDoNothing());

/**
 * Creates the assistant, its default inbox (`<name> API`, channel `api`) in `inboxOrganizationId`
 * and its group links in one batch.
 */
export async function createChatbot(
  db: Db,
  values: ChatbotColumns & Pick<ChatbotRow, "name" | "largeLanguageModelId" | "createdById" | "organizationId">,
  groupIds: string[],
  inboxOrganizationId: string,
  knowledgeBaseIds: string[] = [],
  toolIds: string[] = [],
  skillIds: string[] = [],
): Promise<ChatbotRow> {
  const id = uuidv7();
  const insert = db.insert(chatbots).values({ ...values, id }).returning();
  const inbox = db.insert(inboxes).values({ organizationId: inboxOrganizationId, name: `${values.name} API`, channelType: "api", chatbotId: id, isDefault: true });
  const [[row]] = await db.batch([insert, inbox, ...linkInserts(db, id, groupIds), ...knowledgeBaseLinks(db, id, knowledgeBaseIds), ...chatbotToolStatements(db, id, toolIds, false), ...chatbotSkillStatements(db, id, skillIds, false)]);
  return row;
}

/** Updates the columns and, when `groupIds` is given, replaces the group links (kept links keep their id). */
export async function updateChatbot(db: Db, id: string, values: ChatbotColumns, groupIds?: string[], knowledgeBaseIds?: string[], toolIds?: string[], skillIds?: string[]): Promise<ChatbotRow> {
  const update = db.update(chatbots).set({ ...values, updatedAt: Date.now() }).where(eq(chatbots.id, id)).returning();
  const links: BatchItem<"sqlite">[] = groupIds
    ? [
        db.delete(chatbotGroups).where(and(eq(chatbotGroups.chatbotId, id), groupIds.length ? notInArray(chatbotGroups.groupId, groupIds) : undefined)),
        ...linkInserts(db, id, groupIds),
      ]
    : [];
  if (knowledgeBaseIds) links.push(db.delete(chatbotKnowledgeBases).where(eq(chatbotKnowledgeBases.chatbotId, id)), ...knowledgeBaseLinks(db, id, knowledgeBaseIds));
  if (toolIds) links.push(...chatbotToolStatements(db, id, toolIds, true));
  if (skillIds) links.push(...chatbotSkillStatements(db, id, skillIds, true));
  const [[row]] = await db.batch([update, ...links]);
  return row;
}

/** Deletes the assistant with its default inbox (and that inbox's conversations); other inboxes stay, without assistant. */
export async function deleteChatbot(db: Db, id: string) {
  await db.batch([
    db.delete(inboxes).where(and(eq(inboxes.chatbotId, id), eq(inboxes.isDefault, true))),
    db.delete(chatbots).where(eq(chatbots.id, id)),
  ]);
}

/** `user:password@` and `password=` in a connection string become `****`; the rest is shown. */
export function maskDatabaseUrl(url: string | null): string | null {
  if (!url) return url;
  return url
    .replace(/^([a-z][a-z0-9+.-]*:\/\/[^:@/?#]*:)[^/?#]*@/i, "$1****@")
    .replace(/^([^/@:\s]+\/)[^@]+@/, "$1****@")
    .replace(/(^|[?&;])((?:password|pwd)=)[^&;]*/gi, "$1$2****");
}
