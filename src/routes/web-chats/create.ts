import { createRoute } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import type { Router } from "../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../lib/openapi";
import { inboxes, webChats } from "../../db/schema";
import { conflict, fieldError, isUniqueViolation } from "../../lib/errors";
import { uuidv7 } from "../../lib/ids";
import { currentAccess, requirePermission } from "../../services/access";
import { defaultWebChatSettings, getInbox, getWebChat, requireDomainFree } from "../../services/inboxes";
import { webChatRecord } from "../../services/records/web-chats";
import { WEB_CHATS_TAG, WebChatSchema } from "./schema";
import { IMAGE_NOTE, WebChatCreate, applyWebChatInput } from "./write";
import { publishWebChatImages } from "../../services/uploads/web-chat-images";

const route = createRoute({
  method: "post",
  path: "/web-chats/",
  tags: [WEB_CHATS_TAG],
  summary: "Create the web chat of a web inbox",
  description:
    "Needs `inbox.manage`. `inbox` must be a `web` inbox of the organization (400) without a web chat (409); " +
    "creating a web inbox already creates its web chat. Unset fields take the defaults of a new web chat. " +
    IMAGE_NOTE,
  request: jsonBody(WebChatCreate),
  responses: { 201: json(WebChatSchema, "The created web chat"), ...errorResponses(400, 403, 404, 409) },
});

const alreadyHasOne = () => conflict("This inbox already has a web chat.");

export const registerCreateWebChat = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await currentAccess(c);
    requirePermission(access, "inbox.manage");
    const body = c.req.valid("json");
    const inbox = await getInbox(c.var.db, access.organizationId, body.inbox.id, eq(inboxes.channelType, "web"));
    if (!inbox) throw fieldError("inbox", "Must be a web inbox of this organization.");
    if (inbox.channel) throw alreadyHasOne();
    const fresh = {
      name: inbox.inbox.name,
      accessType: "public" as const,
      isActive: true,
      settings: defaultWebChatSettings(),
    };
    const id = uuidv7();
    const images = await publishWebChatImages(
      c.env,
      c.var.db,
      { organizationId: access.organizationId, webChatId: id, origin: new URL(c.req.url).origin },
      body,
    );
    const stored = applyWebChatInput(fresh, { ...body, ...images.urls }, false);
    if (stored.settings.customDomain) await requireDomainFree(c.var.db, stored.settings.customDomain.domain, null);
    try {
      await c.var.db.batch([
        c.var.db
          .insert(webChats)
          .values({ ...stored, id, organizationId: access.organizationId, inboxId: inbox.inbox.id }),
        ...images.claims,
      ]);
    } catch (err) {
      if (isUniqueViolation(err)) throw alreadyHasOne();
      throw err;
    }
    await images.done();
    return c.json(webChatRecord((await getWebChat(c.var.db, access.organizationId, id))!), 201);
  });
