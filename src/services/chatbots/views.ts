// Everything an assistant record shows besides its own columns, read for a page of assistants at once.
import { and, asc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../env";
import { chatbotKnowledgeBases, chatbotWords, groups, inboxes, knowledgeBases, models } from "../../db/schema";
import { inChunks } from "../../lib/sql";
import { can, type OrgAccess, withPermission } from "../access";
import { chatbotToolLinks } from "../tools/chatbot-tools";
import { visibleToolsCondition } from "../tools/access";
import { chatbotSkillLinks } from "../skills/chatbot-skills";
import { visibleSkillsCondition } from "../skills/access";
import { visibleKnowledgeBasesCondition } from "../knowledge/knowledge-bases";
import { addByKey, onEachPart } from "../shards/parts-sum";
import { chatbotGroupLinks, type ChatbotRow } from "./visibility";
import { maskConnectionString } from "../sql/connection";
import { creatorsOf, groupNameLinks, type IdName, linkedNames } from "../view-parts";

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
  /** Words its replies have used (chatbot_words of the organization's data parts). */
  totalWordsCount: number;
}

/**
 * The knowledge bases, tools and skills of an assistant that its record shows the caller (conditions on their tables):
 * those they can see, or could link (tools and skills given to one of their groups); owners, all. A PUT or PATCH of the
 * lists replaces these links and keeps the others (docs/decisions.md, "Links to what the caller cannot see").
 */
export const shownLinks = (access: OrgAccess, userId: string): ShownLinks => ({
  knowledgeBases: visibleKnowledgeBasesCondition(access, userId),
  tools: visibleToolsCondition(withPermission(access, "tool.view")),
  skills: visibleSkillsCondition(withPermission(access, "skill.view")),
});
export interface ShownLinks {
  knowledgeBases: SQL;
  tools: SQL;
  skills: SQL;
}

/** The assistants' views for the caller (`access`, `userId`): their configuration from `db`, their word counts from
 * the organization's data parts (`parts`, added), read at once. */
export async function chatbotViews(
  db: Db,
  parts: Db[],
  access: OrgAccess,
  userId: string,
  rows: ChatbotRow[],
): Promise<ChatbotView[]> {
  const shown = shownLinks(access, userId);
  const botIds = rows.map((r) => r.id);
  const modelIds = rows
    .flatMap((r) => [r.largeLanguageModelId, r.fallbackLargeLanguageModelId, r.embeddingModelId, r.rerankerModelId])
    .filter((x): x is string => !!x);
  const [creatorOf, modelNames, groupsOf, defaults, basesOf, toolsOf, skillsOf, words] = await Promise.all([
    creatorsOf(db, rows),
    inChunks(modelIds, (ids) =>
      db.select({ id: models.id, name: models.name }).from(models).where(inArray(models.id, ids)),
    ),
    linkedNames(
      db,
      botIds,
      groupNameLinks(chatbotGroupLinks, [asc(sql`${groups.name} collate nocase`), asc(groups.id)]),
    ),
    inChunks(botIds, (ids) =>
      db
        .select({ chatbotId: inboxes.chatbotId, id: inboxes.id, name: inboxes.name })
        .from(inboxes)
        .where(and(inArray(inboxes.chatbotId, ids), eq(inboxes.isDefault, true)))
        .orderBy(asc(inboxes.createdAt), asc(inboxes.id)),
    ),
    linkedNames(
      db,
      botIds,
      {
        table: chatbotKnowledgeBases,
        owner: chatbotKnowledgeBases.chatbotId,
        target: knowledgeBases,
        on: eq(knowledgeBases.id, chatbotKnowledgeBases.knowledgeBaseId),
        id: knowledgeBases.id,
        name: knowledgeBases.name,
        orderBy: [asc(knowledgeBases.name), asc(knowledgeBases.id)],
      },
      shown.knowledgeBases,
    ),
    chatbotToolLinks(db, botIds, shown.tools),
    chatbotSkillLinks(db, botIds, shown.skills),
    onEachPart(parts, (data) =>
      inChunks(botIds, (ids) =>
        data
          .select({ chatbotId: chatbotWords.chatbotId, words: chatbotWords.words })
          .from(chatbotWords)
          .where(inArray(chatbotWords.chatbotId, ids)),
      ),
    ),
  ]);
  const wordsOf = new Map(addByKey(words, ["chatbotId"]).map((w) => [w.chatbotId, w.words]));
  const names = new Map(modelNames.map((x) => [x.id, x.name]));
  const ref = (id: string | null) => (id ? { id, name: names.get(id) ?? "" } : null);
  const canManage = can(access, "chatbot.manage");
  return rows.map((row) => {
    const inbox = defaults.find((d) => d.chatbotId === row.id);
    return {
      row,
      createdBy: creatorOf(row)!,
      largeLanguageModel: ref(row.largeLanguageModelId)!,
      fallbackLargeLanguageModel: ref(row.fallbackLargeLanguageModelId),
      embeddingModel: ref(row.embeddingModelId),
      rerankerModel: ref(row.rerankerModelId),
      groups: groupsOf(row.id),
      knowledgeBases: basesOf(row.id),
      defaultInbox: inbox ? { id: inbox.id, name: inbox.name } : null,
      tools: toolsOf(row.id),
      skills: skillsOf(row.id),
      totalWordsCount: wordsOf.get(row.id) ?? 0,
      canManage,
    };
  });
}

export const chatbotView = async (db: Db, parts: Db[], access: OrgAccess, userId: string, row: ChatbotRow) =>
  (await chatbotViews(db, parts, access, userId, [row]))[0];
/** An assistant's connection string as its record shows it: secrets as `****` (maskConnectionString). */
export const maskDatabaseUrl = (row: Pick<ChatbotRow, "databaseUrl" | "databaseUrlMasked">) => {
  const url = row.databaseUrlMasked ?? row.databaseUrl;
  return url && maskConnectionString(url, "****");
};
