import type { Router } from "../../lib/openapi";
import { registerCompletion } from "./create";

export function registerCompletionRoutes(r: Router) {
  registerCompletion(r);
}
