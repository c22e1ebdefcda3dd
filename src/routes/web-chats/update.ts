import { createRoute } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../../env";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json, jsonBody } from "../../lib/openapi";
import { authorize } from "../../services/access";
import { updateWebChat, type WebChatInput } from "../../services/web-chats";
import { WebChatPatch, WebChatReplace, WebChatSchema } from "../../services/records/web-chats";
import { IMAGE_NOTE, WEB_CHATS_TAG } from "./schema";

/** PUT replaces the themes, PATCH merges them key by key. */
async function update(c: Context<AppEnv>, id: string, input: WebChatInput, mergeThemes: boolean) {
  const access = await authorize(c, "inbox.manage");
  return updateWebChat(
    c.env,
    c.var.db,
    c.var.data,
    access.organizationId,
    id,
    input,
    mergeThemes,
    new URL(c.req.url).origin,
  );
}

const route = (method: "put" | "patch") =>
  createRoute({
    method,
    path: "/web-chats/{id}/",
    tags: [WEB_CHATS_TAG],
    summary: method === "put" ? "Replace a web chat's settings" : "Update some settings of a web chat",
    description:
      method === "put"
        ? "Needs `inbox.manage`. The spec's required fields are required; `theme` and `darkTheme` are replaced " +
          "whole. " +
          IMAGE_NOTE
        : `Needs \`inbox.manage\`. \`theme\` and \`darkTheme\` merge key by key (\`null\` removes a key). ` +
          `${IMAGE_NOTE}`,
    request: { params: IdParams, ...jsonBody(method === "put" ? WebChatReplace : WebChatPatch) },
    responses: { 200: json(WebChatSchema, "The updated web chat"), ...errorResponses(400, 403, 404, 409) },
  });

export const registerReplaceWebChat = (r: Router) =>
  r.openapi(route("put"), async (c) =>
    c.json(await update(c, c.req.valid("param").id, c.req.valid("json"), false), 200),
  );

export const registerPatchWebChat = (r: Router) =>
  r.openapi(route("patch"), async (c) =>
    c.json(await update(c, c.req.valid("param").id, c.req.valid("json"), true), 200),
  );
