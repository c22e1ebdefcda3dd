import type { Router } from "../../lib/openapi";
import { registerCreateMessage } from "./create";
import { registerCreateOutgoingMessage } from "./create-outgoing";
import { registerListMessages } from "./list";
import { registerGetMessage } from "./get";

export function registerMessageRoutes(r: Router) {
  registerCreateMessage(r);
  registerCreateOutgoingMessage(r);
  registerListMessages(r);
  registerGetMessage(r);
}
