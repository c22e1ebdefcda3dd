import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../../env";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json } from "../../lib/openapi";
import { PageQuery, pageOf, pageParams, pageResponse } from "../../lib/pagination";
import { currentAccess } from "../../services/access";
import {
  type ChatbotKnowledgeOf,
  KNOWLEDGE_SOURCES,
  listChatbotKnowledgeFiles,
} from "../../services/chatbots/knowledge";
import { KnowledgeBaseFileSchema } from "../../services/records/knowledge-files";
import { CHATBOTS_TAG } from "./schema";

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
  source: z
    .enum(KNOWLEDGE_SOURCES)
    .default("all")
    .openapi({
      description:
        "`self_built`: the organization's own knowledge bases (all there are here); `built_in`: " +
        "platform-provided knowledge (none exists, so an empty page); `all` (default)",
      example: "all",
    }),
});

export const CHATBOT_KNOWLEDGE_DESCRIPTION =
  "Newest first, from the knowledge bases linked to the assistant that you can also see (owner, creator, or " +
  "`knowledge_base.view` through one of their groups): seeing an assistant does not open its knowledge bases. " +
  "`largeLanguageModel` and `replyMode` are accepted for compatibility and choose nothing. The assistant must " +
  "be visible to you, else 404.";

/** The caller and the assistant whose knowledge both lists read. */
export const knowledgeOf = async (c: Context<AppEnv>, chatbotId: string): Promise<ChatbotKnowledgeOf> => ({
  db: c.var.db,
  access: await currentAccess(c),
  userId: c.var.principal.userId,
  chatbotId,
});

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
    const q = c.req.valid("query");
    const p = pageParams(q);
    const page = await listChatbotKnowledgeFiles(
      await knowledgeOf(c, c.req.valid("param").id),
      q,
      p,
      new URL(c.req.url).origin,
    );
    return c.json(pageResponse(c, p, page.count, page.items), 200);
  });
