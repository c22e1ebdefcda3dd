import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json, jsonBody } from "../../lib/openapi";
import { fieldError } from "../../lib/errors";
import { authorize } from "../../services/access";
import { checkChatbotLinks, checkChatbotRules, chatbotColumns } from "../../services/chatbots/rules";
import { chatbotView, maskDatabaseUrl, shownLinks } from "../../services/chatbots/views";
import { sealedDatabaseUrl } from "../../services/chatbots/database-url";
import { chatbotGroupIds, getChatbotForRead } from "../../services/chatbots/visibility";
import { updateChatbot } from "../../services/chatbots/store";
import { chatbotRecord, ChatbotSchema, ChatbotPatch, ChatbotWrite } from "../../services/records/chatbots";
import { dataParts } from "../../services/shards/parts";
import { CHATBOTS_TAG } from "./schema";
import { definedFields } from "../../lib/patch";

const routeFor = (method: "put" | "patch") =>
  createRoute({
    method,
    path: "/chatbots/{id}/",
    tags: [CHATBOTS_TAG],
    summary: method === "put" ? "Replace an assistant's settings" : "Update some settings of an assistant",
    description:
      "Needs `chatbot.manage` and an assistant you can see. " +
      (method === "put" ? "`name` and `largeLanguageModel` are required; " : "") +
      "fields left out keep their value; `groups`, when given, replaces the assistant's groups (non-owners " +
      "may only add groups they belong to); `knowledgeBases`, `tools` and `skills` replace the links to those you " +
      "can see, as the record lists them, and links to others stay. " +
      "`organization` cannot change. The rules of create apply to the result.",
    request: { params: IdParams, ...jsonBody(method === "put" ? ChatbotWrite : ChatbotPatch) },
    responses: { 200: json(ChatbotSchema, "The updated assistant"), ...errorResponses(400, 403, 404) },
  });

export function registerUpdateChatbot(r: Router) {
  for (const route of [routeFor("put"), routeFor("patch")]) {
    r.openapi(route, async (c) => {
      const db = c.var.db;
      const access = await authorize(c, "chatbot.manage");
      const current = await getChatbotForRead(db, access, c.var.principal.userId, c.req.valid("param").id);
      const body = c.req.valid("json");
      if (body.organization !== undefined && (body.organization || null) !== current.organizationId) {
        throw fieldError("organization", "Cannot be changed after creation.");
      }
      const links = await checkChatbotLinks(
        db,
        c.env,
        access,
        c.var.principal.userId,
        current.organizationId === null,
        body,
        await chatbotGroupIds(db, current.id),
      );
      const columns = definedFields(chatbotColumns(body));
      // A record sent back unchanged carries the masked URL: keep the stored one.
      if (columns.databaseUrl && columns.databaseUrl === maskDatabaseUrl(current)) delete columns.databaseUrl;
      checkChatbotRules({ ...current, ...columns });
      const shown = shownLinks(access, c.var.principal.userId);
      const row = await updateChatbot(db, current.id, await sealedDatabaseUrl(c.env, columns), links, shown);
      return c.json(
        chatbotRecord(
          await chatbotView(db, await dataParts(c.env, access.organizationId), access, c.var.principal.userId, row),
        ),
        200,
      );
    });
  }
}
