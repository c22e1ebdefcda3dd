import { createRoute } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import type { Context } from "hono";
import type { AppEnv } from "../../env";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json, jsonBody } from "../../lib/openapi";
import { webChats } from "../../db/schema";
import { fieldError, notFound } from "../../lib/errors";
import { currentAccess, requirePermission } from "../../services/access";
import { getWebChat, requireDomainFree } from "../../services/inboxes";
import { webChatRecord } from "../../services/records/web-chats";
import { publishWebChatImages, replacedWebChatImages } from "../../services/uploads/web-chat-images";
import { WEB_CHATS_TAG, WebChatSchema } from "./schema";
import { IMAGE_NOTE, WebChatPatch, WebChatReplace, applyWebChatInput, type WebChatInput } from "./write";

/** PUT replaces the themes, PATCH merges them key by key; other fields left out keep their value. */
async function updateWebChat(c: Context<AppEnv>, id: string, input: WebChatInput, mergeThemes: boolean) {
  const access = await currentAccess(c);
  requirePermission(access, "inbox.manage");
  const view = await getWebChat(c.var.db, access.organizationId, id);
  if (!view) throw notFound();
  if (input.inbox && input.inbox.id !== view.inbox.id)
    throw fieldError("inbox", "The inbox of a web chat cannot change.");
  const images = await publishWebChatImages(
    c.env,
    c.var.db,
    { organizationId: access.organizationId, webChatId: id, origin: new URL(c.req.url).origin },
    input,
  );
  const stored = applyWebChatInput(view.webChat, { ...input, ...images.urls }, mergeThemes);
  const domain = stored.settings.customDomain?.domain;
  if (domain && domain !== view.webChat.settings.customDomain?.domain) await requireDomainFree(c.var.db, domain, id);
  await c.var.db.batch([
    c.var.db
      .update(webChats)
      .set({ ...stored, updatedAt: Date.now() })
      .where(eq(webChats.id, id)),
    ...images.claims,
  ]);
  await images.done();
  // The public files of images this write replaced or cleared (a visitor's cached page may show one a moment longer).
  const replaced = replacedWebChatImages(id, view.webChat.settings, stored.settings);
  if (replaced.length) await c.env.FILES.delete(replaced);
  return webChatRecord((await getWebChat(c.var.db, access.organizationId, id))!);
}

const route = (method: "put" | "patch") =>
  createRoute({
    method,
    path: "/web-chats/{id}/",
    tags: [WEB_CHATS_TAG],
    summary: method === "put" ? "Replace a web chat's settings" : "Update some settings of a web chat",
    description:
      method === "put"
        ? "Needs `inbox.manage`. The spec's required fields are required; `theme` and `darkTheme` are replaced whole. " +
          IMAGE_NOTE
        : `Needs \`inbox.manage\`. \`theme\` and \`darkTheme\` merge key by key (\`null\` removes a key). ${IMAGE_NOTE}`,
    request: { params: IdParams, ...jsonBody(method === "put" ? WebChatReplace : WebChatPatch) },
    responses: { 200: json(WebChatSchema, "The updated web chat"), ...errorResponses(400, 403, 404, 409) },
  });

export const registerReplaceWebChat = (r: Router) =>
  r.openapi(route("put"), async (c) =>
    c.json(await updateWebChat(c, c.req.valid("param").id, c.req.valid("json"), false), 200),
  );

export const registerPatchWebChat = (r: Router) =>
  r.openapi(route("patch"), async (c) =>
    c.json(await updateWebChat(c, c.req.valid("param").id, c.req.valid("json"), true), 200),
  );
