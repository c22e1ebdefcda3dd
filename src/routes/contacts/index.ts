import type { Router } from "../../lib/openapi";

export function registerContactRoutes(r: Router) {
  void r;
}
