import type { Router } from "../../lib/openapi";
import { idempotentForUser } from "../../middleware/idempotency";
import { registerCompletion } from "./create";

export function registerCompletionRoutes(r: Router) {
  r.use("/chatbots/:chatbotId/completions/", idempotentForUser());
  registerCompletion(r);
}
