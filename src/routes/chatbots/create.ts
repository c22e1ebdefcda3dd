import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../lib/openapi";
import { currentAccess, orgAccess, requirePermission } from "../../services/access";
import { addChatbot } from "../../services/chatbots/change";
import { chatbotView } from "../../services/chatbots/views";
import { chatbotRecord, ChatbotSchema, ChatbotWrite } from "../../services/records/chatbots";
import { dataParts } from "../../services/shards/parts";
import { CHATBOTS_TAG } from "./schema";

const route = createRoute({
  method: "post",
  path: "/chatbots/",
  tags: [CHATBOTS_TAG],
  summary: "Create an assistant",
  description:
    "Needs `chatbot.manage` in the assistant's organization: the current one when `organization` is absent, " +
    "the one named (you must be a member, " +
    "else 404), or none when it is empty or null (a personal assistant, visible to you only; it counts " +
    "against and is hosted by the current organization). " +
    "Models must be built-in or the organization's own, of the right kind, and available in this deployment " +
    "(`available` on the model; else 400 naming the field and the reason). Knowledge bases must be ones you " +
    "can see in the organization; toolkits do not exist in " +
    "this service yet: only empty lists are accepted. Non-owners may only give the assistant to groups they " +
    "belong to (403). " +
    "`replyMode` template needs a `template`; `outputMode` json_schema needs `rawOutputFormat`. " +
    "`totalWordsCount` is read-only and ignored. " +
    "403 when the plan's assistant limit is reached or the plan has lapsed. The assistant's default inbox " +
    "(`<name> API`, channel `api`) is created with it.",
  request: jsonBody(ChatbotWrite),
  responses: { 201: json(ChatbotSchema, "The created assistant"), ...errorResponses(400, 403, 404) },
});

export const registerCreateChatbot = (r: Router) =>
  r.openapi(route, async (c) => {
    const db = c.var.db;
    const body = c.req.valid("json");
    const current = await currentAccess(c);
    const personal = body.organization === null || body.organization === "";
    const access =
      body.organization && body.organization !== current.organizationId
        ? await orgAccess(c, body.organization)
        : current;
    requirePermission(access, "chatbot.manage");
    const row = await addChatbot(c.env, db, access, c.var.principal.userId, personal, body);
    const parts = await dataParts(c.env, access.organizationId);
    return c.json(chatbotRecord(await chatbotView(db, parts, access, c.var.principal.userId, row)), 201);
  });
