import type { Router } from "../../lib/openapi";

export function registerChatCompletionRoutes(r: Router) {
  void r;
}
