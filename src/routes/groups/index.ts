import type { Router } from "../../lib/openapi";

export function registerGroupRoutes(r: Router) {
  void r;
}
