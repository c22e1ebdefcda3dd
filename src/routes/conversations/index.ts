import type { Router } from "../../lib/openapi";

export function registerConversationRoutes(r: Router) {
  void r;
}
