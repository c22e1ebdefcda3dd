import type { Router } from "../../lib/openapi";
import { registerCreateLabel } from "./create";
import { registerDeleteLabel } from "./delete";
import { registerGetLabel } from "./get";
import { registerListLabels } from "./list";
import { registerSetConversationLabels } from "./set-conversation-labels";
import { registerUpdateLabel } from "./update";

/** Conversation labels of the organization and the labels a conversation carries (CONTRACT section 18). */
export function registerLabelRoutes(r: Router) {
  registerListLabels(r);
  registerCreateLabel(r);
  registerGetLabel(r);
  registerUpdateLabel(r);
  registerDeleteLabel(r);
  registerSetConversationLabels(r);
}
