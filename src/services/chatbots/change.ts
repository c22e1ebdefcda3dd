// Creating and changing assistants from an API body: what the body refers to checked first (rules.ts: models, groups,
// knowledge bases, tools, skills), then the rules across fields on the assistant as it will be stored.
import type { z } from "@hono/zod-openapi";
import type { Bindings, Db } from "../../env";
import { fieldError } from "../../lib/errors";
import { definedFields } from "../../lib/patch";
import type { OrgAccess } from "../access";
import { planSettings } from "../plans";
import type { ChatbotWrite } from "../records/chatbots";
import { sealedDatabaseUrl } from "./database-url";
import { requireChatbotQuota } from "./quota";
import { type ChatbotInput, chatbotColumns, checkChatbotLinks, checkChatbotRules } from "./rules";
import { createChatbot, updateChatbot } from "./store";
import { maskDatabaseUrl, shownLinks } from "./views";
import { chatbotGroupIds, getChatbotForRead } from "./visibility";

/**
 * Creates an assistant of `access`'s organization (`personal`: the creator's own, in no organization), with its
 * default inbox and the links the body gives, within the plan's number of assistants (403 past it).
 */
export async function addChatbot(
  env: Bindings,
  db: Db,
  access: OrgAccess,
  userId: string,
  personal: boolean,
  body: z.output<typeof ChatbotWrite>,
) {
  const links = await checkChatbotLinks(db, env, access, userId, personal, body);
  const columns = chatbotColumns(body);
  checkChatbotRules({
    replyMode: columns.replyMode ?? "normal",
    template: columns.template ?? null,
    outputMode: columns.outputMode ?? "text",
    rawOutputFormat: columns.rawOutputFormat ?? null,
    largeLanguageModelId: body.largeLanguageModel,
    fallbackLargeLanguageModelId: columns.fallbackLargeLanguageModelId ?? null,
  });
  const quota = await requireChatbotQuota(db, access.organizationId, planSettings(env));
  const values = {
    ...(await sealedDatabaseUrl(env, columns)),
    name: body.name,
    largeLanguageModelId: body.largeLanguageModel,
    createdById: userId,
    organizationId: personal ? null : access.organizationId,
  };
  return createChatbot(db, values, access.organizationId, links, quota);
}

/**
 * Changes an assistant the caller sees (PUT and PATCH): fields left out stay, its organization cannot change, a
 * connection string sent back masked keeps the stored one, and the links given replace those the caller's record
 * shows (shownLinks: links to what they cannot see stay).
 */
export async function changeChatbot(
  env: Bindings,
  db: Db,
  access: OrgAccess,
  userId: string,
  id: string,
  body: ChatbotInput,
) {
  const current = await getChatbotForRead(db, access, userId, id);
  if (body.organization !== undefined && (body.organization || null) !== current.organizationId) {
    throw fieldError("organization", "Cannot be changed after creation.");
  }
  const personal = current.organizationId === null;
  const links = await checkChatbotLinks(db, env, access, userId, personal, body, await chatbotGroupIds(db, current.id));
  const columns = definedFields(chatbotColumns(body));
  // A record sent back unchanged carries the masked URL: keep the stored one.
  if (columns.databaseUrl && columns.databaseUrl === maskDatabaseUrl(current)) delete columns.databaseUrl;
  checkChatbotRules({ ...current, ...columns });
  return updateChatbot(db, current.id, await sealedDatabaseUrl(env, columns), links, shownLinks(access, userId));
}
