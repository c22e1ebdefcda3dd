import type { Router } from "../../lib/openapi";
import { idempotent } from "../../middleware/idempotency";
import { activeWebChat } from "../../services/widget/web-chats";
import { visitorOf } from "../../services/widget/visitors";
import { clientAddress, limitWidget } from "../../services/widget/limits";
import { registerWidgetConfig } from "./config";
import { registerWidgetConversations } from "./conversations";
import { registerWidgetFeedback } from "./feedback";
import { registerWidgetHistory } from "./history";
import { registerWidgetResume } from "./resume";
import { registerWidgetLive } from "./live";
import { registerWidgetSend } from "./send";
import { registerWidgetSession } from "./session";
import { registerWidgetShare } from "./share";
import { registerWidgetUpload } from "./upload";
import { registerWidgetTyping } from "./typing";
import { registerWidgetCsat } from "./csat";

/** The widget's public endpoints (CONTRACT section 14): no API key, limited per web chat and per client. */
export function registerWidgetRoutes(r: Router) {
  r.use("/web-chats/:id/public/*", async (c, next) => {
    limitWidget(c.env, c.req.param("id") ?? "", clientAddress(c.req.raw.headers));
    await next();
  });
  // A visitor's keys are the visitor's own (its contact).
  r.use(
    "/web-chats/:id/public/messages/",
    idempotent(async (c) => {
      const chat = await activeWebChat(c.var.db, c.req.param("id") ?? "");
      const visitor = await visitorOf(c.env, chat, c.req.header("Authorization"));
      return { organizationId: chat.webChat.organizationId, owner: `contact:${visitor.contactId}` };
    }),
  );
  r.openAPIRegistry.registerComponent("securitySchemes", "WidgetToken", {
    type: "http",
    scheme: "bearer",
    description: "Visitor token from `POST /web-chats/{id}/public/session/`",
  });
  registerWidgetConfig(r);
  registerWidgetSession(r);
  registerWidgetConversations(r);
  registerWidgetHistory(r);
  registerWidgetUpload(r);
  registerWidgetSend(r);
  registerWidgetResume(r);
  registerWidgetLive(r);
  registerWidgetFeedback(r);
  registerWidgetShare(r);
  registerWidgetTyping(r);
  registerWidgetCsat(r);
}
