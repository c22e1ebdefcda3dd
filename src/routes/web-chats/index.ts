import type { Router } from "../../lib/openapi";
import { registerCreateWebChat } from "./create";
import { registerGetWebChat } from "./get";
import { registerListWebChats } from "./list";
import { registerPatchWebChat, registerReplaceWebChat } from "./update";

export function registerWebChatRoutes(r: Router) {
  registerListWebChats(r);
  registerCreateWebChat(r);
  registerGetWebChat(r);
  registerReplaceWebChat(r);
  registerPatchWebChat(r);
}
