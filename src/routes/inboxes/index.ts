import type { Router } from "../../lib/openapi";
import { registerCreateInbox } from "./create";
import { registerDeleteInbox } from "./delete";
import { registerGetInbox } from "./get";
import { registerListInboxes } from "./list";
import { registerPatchInbox, registerReplaceInbox } from "./update";
import { registerChannelRoutes } from "./channel";

export function registerInboxRoutes(r: Router) {
  registerListInboxes(r);
  registerCreateInbox(r);
  registerGetInbox(r);
  registerReplaceInbox(r);
  registerPatchInbox(r);
  registerDeleteInbox(r);
  registerChannelRoutes(r);
}
