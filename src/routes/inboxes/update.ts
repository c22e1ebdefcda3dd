import { createRoute } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../../env";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json, jsonBody } from "../../lib/openapi";
import { dataParts } from "../../services/shards/parts";
import { authorize } from "../../services/access";
import { updateInbox } from "../../services/inboxes";
import { type InboxInput, InboxPatch, InboxWrite } from "../../services/records/inboxes";
import { INBOXES_TAG, InboxSchema } from "./schema";

async function update(c: Context<AppEnv>, id: string, body: InboxInput) {
  const access = await authorize(c, "inbox.manage");
  const parts = await dataParts(c.env, access.organizationId);
  return updateInbox(c.var.db, parts, access, c.var.principal.userId, id, body);
}

const route = (method: "put" | "patch") =>
  createRoute({
    method,
    path: "/inboxes/{id}/",
    tags: [INBOXES_TAG],
    summary: method === "put" ? "Replace an inbox" : "Update some fields of an inbox",
    description:
      "Needs `inbox.manage`. `channelType` cannot change after creation (400). A new `chatbot` must be an " +
      "assistant of the organization that you can see (400 otherwise), as for a new inbox.",
    request: { params: IdParams, ...jsonBody(method === "put" ? InboxWrite : InboxPatch) },
    responses: { 200: json(InboxSchema, "The updated inbox"), ...errorResponses(400, 403, 404) },
  });

export const registerReplaceInbox = (r: Router) =>
  r.openapi(route("put"), async (c) => c.json(await update(c, c.req.valid("param").id, c.req.valid("json")), 200));

export const registerPatchInbox = (r: Router) =>
  r.openapi(route("patch"), async (c) => c.json(await update(c, c.req.valid("param").id, c.req.valid("json")), 200));
