import { createRoute, z } from "@hono/zod-openapi";
import { and, count, desc, eq, sql, type SQL } from "drizzle-orm";
import { chatbotKnowledgeBases, knowledgeBaseFiles, knowledgeBases } from "../../db/schema";
import { notFound } from "../../lib/errors";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json } from "../../lib/openapi";
import { PageQuery, pageOf, pageParams, pageResponse } from "../../lib/pagination";
import { contains } from "../../lib/sql";
import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { currentAccess } from "../../services/access";
import { getVisibleChatbot } from "../../services/chatbots/visibility";
import { visibleKnowledgeBasesCondition } from "../../services/knowledge-bases";
import { fileLabels } from "../../services/knowledge-files";
import { fileRecord } from "../../services/records/knowledge-files";
import { KnowledgeBaseFileSchema } from "../../services/records/knowledge-files";
import { CHATBOTS_TAG } from "./schema";

export const KNOWLEDGE_SOURCES = ["self_built", "built_in", "all"] as const;

/** Query of both assistant knowledge lists (files and FAQs). */
export const ChatbotKnowledgeQuery = PageQuery.extend({
  query: z
    .string()
    .max(200)
    .optional()
    .openapi({ description: "File name (files) or question (FAQs) contains, case-insensitive", example: "refund" }),
  largeLanguageModel: z.string().max(100).optional().openapi({
    description: "Accepted and ignored: every model answers from the same knowledge here",
    example: "00000000-0000-7000-8000-000000000001",
  }),
  replyMode: z.string().max(50).optional().openapi({
    description: "Accepted and ignored: the reply mode does not change the assistant's knowledge",
    example: "normal",
  }),
  source: z.enum(KNOWLEDGE_SOURCES).default("all").openapi({
    description:
      "`self_built`: the organization's own knowledge bases (all there are here); `built_in`: platform-provided knowledge (none exists, so an empty page); `all` (default)",
    example: "all",
  }),
});

export const CHATBOT_KNOWLEDGE_DESCRIPTION =
  "Newest first, from the knowledge bases linked to the assistant that you can also see (owner, creator, or " +
  "`knowledge_base.view` through one of their groups): seeing an assistant does not open its knowledge bases. " +
  "`largeLanguageModel` and `replyMode` are accepted for compatibility and choose nothing. The assistant must be visible to you, else 404.";

/**
 * The assistant (404 unless visible) and the condition on `knowledge_bases` selecting the
 * knowledge it lists; null when `source` asks for built-in knowledge, of which there is none.
 */
export async function chatbotKnowledgeScope(
  c: Context<AppEnv>,
  chatbotId: string,
  source: (typeof KNOWLEDGE_SOURCES)[number],
): Promise<SQL | null> {
  const access = await currentAccess(c);
  const userId = c.var.principal.userId;
  const bot = await getVisibleChatbot(c.var.db, access, userId, chatbotId);
  if (!bot) throw notFound("Assistant not found.");
  if (source === "built_in") return null;
  return and(
    sql`${knowledgeBases.id} in (select ${chatbotKnowledgeBases.knowledgeBaseId} from ${chatbotKnowledgeBases} where ${chatbotKnowledgeBases.chatbotId} = ${bot.id})`,
    visibleKnowledgeBasesCondition(access, userId),
  )!;
}

const route = createRoute({
  method: "get",
  path: "/chatbots/{id}/knowledge-bases-files/",
  tags: [CHATBOTS_TAG],
  summary: "List the files an assistant answers from",
  description: `The files of the assistant's knowledge bases. ${CHATBOT_KNOWLEDGE_DESCRIPTION}`,
  request: { params: IdParams, query: ChatbotKnowledgeQuery },
  responses: {
    200: json(pageOf(KnowledgeBaseFileSchema, "ChatbotKnowledgeFilePage"), "Page of files"),
    ...errorResponses(400, 404),
  },
});

export const registerListChatbotKnowledgeFiles = (r: Router) =>
  r.openapi(route, async (c) => {
    const db = c.var.db;
    const q = c.req.valid("query");
    const p = pageParams(q);
    const scope = await chatbotKnowledgeScope(c, c.req.valid("param").id, q.source);
    if (!scope) return c.json(pageResponse(c, p, 0, []), 200);
    const where = and(scope, q.query ? contains(knowledgeBaseFiles.filename, q.query) : undefined);
    const join = eq(knowledgeBases.id, knowledgeBaseFiles.knowledgeBaseId);
    const [[{ n }], rows] = await Promise.all([
      db.select({ n: count() }).from(knowledgeBaseFiles).innerJoin(knowledgeBases, join).where(where),
      db
        .select({ file: knowledgeBaseFiles, kb: { id: knowledgeBases.id, name: knowledgeBases.name } })
        .from(knowledgeBaseFiles)
        .innerJoin(knowledgeBases, join)
        .where(where)
        .orderBy(desc(knowledgeBaseFiles.createdAt), desc(knowledgeBaseFiles.id))
        .limit(p.limit)
        .offset(p.offset),
    ]);
    const labels = await fileLabels(
      db,
      rows.map((r) => r.file.id),
    );
    const origin = new URL(c.req.url).origin;
    return c.json(
      pageResponse(
        c,
        p,
        n,
        rows.map(({ file, kb }) => fileRecord(origin, file, kb, labels.get(file.id) ?? [])),
      ),
      200,
    );
  });
