import type { Router } from "../../lib/openapi";
import { registerCreateConversation } from "./create";
import { registerListConversations } from "./list";
import { registerGetConversation } from "./get";
import { registerUpdateAutoReply } from "./update-auto-reply";
import { registerTakeOver } from "./take-over";
import { registerResolveConversation } from "./resolve";
import { registerConversationEvents } from "./events";
import { registerReadConversation } from "./read";
import { registerAssignConversation } from "./assign";
import { registerConversationTyping } from "./typing";
import { registerUnreadConversations } from "./unread";
import { registerConversationAssignees } from "./assignees";

export function registerConversationRoutes(r: Router) {
  registerCreateConversation(r);
  registerListConversations(r);
  registerGetConversation(r);
  registerUpdateAutoReply(r);
  registerTakeOver(r);
  registerResolveConversation(r);
  registerConversationEvents(r);
  registerReadConversation(r);
  registerAssignConversation(r);
  registerConversationTyping(r);
  registerUnreadConversations(r);
  registerConversationAssignees(r);
}
