import type { Router } from "../../../lib/openapi";
import { registerBulkCreateGroupChatbots } from "./bulk-create";
import { registerListGroupChatbots } from "./list";
import { registerDeleteGroupChatbot } from "./delete";

export function registerGroupChatbotRoutes(r: Router) {
  registerBulkCreateGroupChatbots(r);
  registerListGroupChatbots(r);
  registerDeleteGroupChatbot(r);
}
