import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json, jsonBody } from "../../lib/openapi";
import { authorize } from "../../services/access";
import { changeChatbot } from "../../services/chatbots/change";
import { chatbotView } from "../../services/chatbots/views";
import { chatbotRecord, ChatbotSchema, ChatbotPatch, ChatbotWrite } from "../../services/records/chatbots";
import { dataParts } from "../../services/shards/parts";
import { CHATBOTS_TAG } from "./schema";

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
      const { id } = c.req.valid("param");
      const row = await changeChatbot(c.env, db, access, c.var.principal.userId, id, c.req.valid("json"));
      const parts = await dataParts(c.env, access.organizationId);
      return c.json(chatbotRecord(await chatbotView(db, parts, access, c.var.principal.userId, row)), 200);
    });
  }
}
