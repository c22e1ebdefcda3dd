import { createRoute } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import type { Context } from "hono";
import type { AppEnv } from "../../env";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json, jsonBody } from "../../lib/openapi";
import { inboxes } from "../../db/schema";
import { fieldError, notFound } from "../../lib/errors";
import { currentAccess, requirePermission } from "../../services/access";
import { getInbox, requireChatbotOf, requireUsableHours } from "../../services/inboxes";
import type { BusinessHours } from "../../services/business-hours";
import { inboxRecord } from "../../services/records/inboxes";
import { requireTeamOf } from "../../services/assignment/settings";
import type { InboxAssignment } from "../../db/schema";
import { INBOXES_TAG, InboxPatch, InboxSchema, InboxWrite } from "./schema";

type Changes = {
  name?: string;
  channelType?: string;
  chatbot?: { id: string } | null;
  businessHours?: BusinessHours | null;
  assignment?: InboxAssignment;
};

/** PUT and PATCH: fields left out stay as they are; `channelType` cannot change. */
async function updateInbox(c: Context<AppEnv>, id: string, body: Changes) {
  const access = await currentAccess(c);
  requirePermission(access, "inbox.manage");
  const view = await getInbox(c.var.db, access.organizationId, id);
  if (!view) throw notFound();
  if (body.channelType !== undefined && body.channelType !== view.inbox.channelType) {
    throw fieldError("channelType", "Cannot be changed after creation.");
  }
  const chatbotChanges = body.chatbot !== undefined && (body.chatbot?.id ?? null) !== view.inbox.chatbotId;
  if (view.inbox.isDefault && chatbotChanges)
    throw fieldError("chatbot", "An assistant's default inbox stays with its assistant.");
  if (body.chatbot) await requireChatbotOf(c.var.db, access.organizationId, body.chatbot.id);
  const chatbotId = body.chatbot === undefined ? undefined : (body.chatbot?.id ?? null);
  if (body.businessHours) requireUsableHours(body.businessHours);
  if (body.assignment?.teamId)
    await requireTeamOf(c.var.db, access.organizationId, body.assignment.teamId, "assignment.teamId");
  await c.var.db
    .update(inboxes)
    .set({
      name: body.name,
      chatbotId,
      businessHours: body.businessHours,
      assignment: body.assignment,
      updatedAt: Date.now(),
    })
    .where(eq(inboxes.id, id));
  return inboxRecord((await getInbox(c.var.db, access.organizationId, id))!);
}

const route = (method: "put" | "patch") =>
  createRoute({
    method,
    path: "/inboxes/{id}/",
    tags: [INBOXES_TAG],
    summary: method === "put" ? "Replace an inbox" : "Update some fields of an inbox",
    description: "Needs `inbox.manage`. `channelType` cannot change after creation (400).",
    request: { params: IdParams, ...jsonBody(method === "put" ? InboxWrite : InboxPatch) },
    responses: { 200: json(InboxSchema, "The updated inbox"), ...errorResponses(400, 403, 404) },
  });

export const registerReplaceInbox = (r: Router) =>
  r.openapi(route("put"), async (c) => c.json(await updateInbox(c, c.req.valid("param").id, c.req.valid("json")), 200));

export const registerPatchInbox = (r: Router) =>
  r.openapi(route("patch"), async (c) =>
    c.json(await updateInbox(c, c.req.valid("param").id, c.req.valid("json")), 200),
  );
