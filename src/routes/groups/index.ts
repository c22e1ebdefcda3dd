import type { Router } from "../../lib/openapi";
import { registerCreateGroup } from "./create";
import { registerListGroups } from "./list";
import { registerGetGroup } from "./get";
import { registerUpdateGroup } from "./update";
import { registerDeleteGroup } from "./delete";
import { registerGroupMemberRoutes } from "./group-members";
import { registerGroupChatbotRoutes } from "./group-chatbots";

export function registerGroupRoutes(r: Router) {
  registerCreateGroup(r);
  registerListGroups(r);
  registerGetGroup(r);
  registerUpdateGroup(r);
  registerDeleteGroup(r);
  registerGroupMemberRoutes(r);
  registerGroupChatbotRoutes(r);
}
