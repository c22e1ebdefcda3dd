import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, uuidParam } from "../../lib/openapi";
import { orgAccess, requirePermission } from "../../services/access";
import { inboxEventStream } from "../../services/conversation/inbox-stream";
import { ConversationEventStream } from "../../services/records/conversation-events";
import { SSE_HEADERS } from "../../services/sse";

const route = createRoute({
  method: "get",
  path: "/organizations/{organizationPk}/conversation-events/",
  tags: ["Conversations"],
  summary: "Live events of the organization's conversations",
  description:
    "Needs `conversation.view`. A server-sent event stream (works with `EventSource` and the console's " +
    "cookie) of what happens " +
    "to the organization's conversations from now on, on any channel: `ready` once subscribed, then " +
    "`conversation.created` " +
    "`{conversation}`, `message.created` `{conversation, message}` (the message record) and `conversation.updated` " +
    "`{conversation, changes, reason}` (handoff, takeover, hand back, resolve, a visitor's message reopening " +
    "a resolved one; CONTRACT section 18: `changes` is each of `status`, " +
    "`progressStatus`, `assignee`, `autoReplyEnabled` that changed as `[before, after]`, `reason` one of " +
    "`visitor_request`, `unanswered`, " +
    "`tool`, `operator`, `auto_assignment`, `resolved`; without `changes` when only its unread count changed: " +
    "`read/`). `conversation` carries the state, `unreadCount` and the ids of its inbox, " +
    "assistant, contact and assignee (`GET /conversations/{id}/` gives their names). A `: ping` comment every " +
    "10 s. Nothing " +
    "is replayed: after a reconnection, read the list again. An isolate that found no stream open publishes " +
    "nothing for 2 s, " +
    "so read the list again 2 s after `ready` too. The caller's access is checked again every 30 s: once the " +
    "API key or " +
    "console session is revoked or expired, or the member has left the organization or lost `conversation.view`, the " +
    "stream ends with `event: error` `{detail, code}` (`not_authenticated` or `permission_denied`). A stream " +
    "opened with the " +
    "console's session counts as the member being present: 30 s after their last such stream closed, their " +
    "availability becomes `offline`. The `text/event-stream` schema gives each event's `data`.",
  request: { params: z.object({ organizationPk: uuidParam("organizationPk", "Organization id") }) },
  responses: {
    200: {
      description: "The events",
      content: { "text/event-stream": { schema: ConversationEventStream } },
    },
    ...errorResponses(403, 404),
  },
});

export const registerConversationEvents = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await orgAccess(c, c.req.valid("param").organizationPk);
    requirePermission(access, "conversation.view");
    const waitUntil = (p: Promise<unknown>) => c.executionCtx.waitUntil(p);
    const stream = await inboxEventStream(c.env, c.var.db, waitUntil, c.var.principal, access.organizationId);
    return c.body(stream, 200, SSE_HEADERS);
  });
