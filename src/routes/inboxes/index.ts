import type { Router } from "../../lib/openapi";

export function registerInboxRoutes(r: Router) {
  void r;
}
