import type { Router } from "../../lib/openapi";
import { registerCreateConversation } from "./create";
import { registerListConversations } from "./list";
import { registerGetConversation } from "./get";
import { registerUpdateAutoReply } from "./update-auto-reply";

export function registerConversationRoutes(r: Router) {
  registerCreateConversation(r);
  registerListConversations(r);
  registerGetConversation(r);
  registerUpdateAutoReply(r);
}
