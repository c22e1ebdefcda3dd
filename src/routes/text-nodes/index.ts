import type { Router } from "../../lib/openapi";
import { registerListTextNodes } from "./list";
import { registerGetTextNode } from "./get";

export function registerTextNodeRoutes(r: Router) {
  registerListTextNodes(r);
  registerGetTextNode(r);
}
