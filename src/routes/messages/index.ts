import type { Router } from "../../lib/openapi";

export function registerMessageRoutes(r: Router) {
  void r;
}
