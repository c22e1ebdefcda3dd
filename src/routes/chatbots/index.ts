import type { Router } from "../../lib/openapi";

export function registerChatbotRoutes(r: Router) {
  void r;
}
