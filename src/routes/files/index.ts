import type { Router } from "../../lib/openapi";

export function registerFileRoutes(r: Router) {
  void r;
}
