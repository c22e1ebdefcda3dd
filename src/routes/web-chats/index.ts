import type { Router } from "../../lib/openapi";

export function registerWebChatRoutes(r: Router) {
  void r;
}
