import type { Router } from "../../lib/openapi";
import { registerCreateWebChat } from "./create";
import { registerGetWebChat } from "./get";
import { registerListWebChats } from "./list";
import { registerPatchWebChat, registerReplaceWebChat } from "./update";
import { registerWebChatIdentitySecret } from "./identity-secret";
import { registerVerifyWebChatDomain } from "./verify-domain";

export function registerWebChatRoutes(r: Router) {
  registerListWebChats(r);
  registerCreateWebChat(r);
  registerGetWebChat(r);
  registerReplaceWebChat(r);
  registerPatchWebChat(r);
  registerWebChatIdentitySecret(r);
  registerVerifyWebChatDomain(r);
}
