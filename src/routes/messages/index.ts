import type { Router } from "../../lib/openapi";
import { idempotentForUser } from "../../middleware/idempotency";
import { registerCreateMessage } from "./create";
import { registerCreateOutgoingMessage } from "./create-outgoing";
import { registerListMessages } from "./list";
import { registerGetMessage } from "./get";
import { registerRetryDelivery } from "./retry-delivery";

export function registerMessageRoutes(r: Router) {
  const byUser = idempotentForUser();
  r.use("/messages/", byUser);
  r.use("/messages/outgoing/", byUser);
  registerCreateMessage(r);
  registerCreateOutgoingMessage(r);
  registerListMessages(r);
  registerGetMessage(r);
  registerRetryDelivery(r);
}
