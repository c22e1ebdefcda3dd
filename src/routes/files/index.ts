import type { Router } from "../../lib/openapi";
import { registerGetPublicFile } from "./get-public";

export function registerFileRoutes(r: Router) {
  registerGetPublicFile(r);
}
