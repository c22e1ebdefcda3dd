import type { Router } from "../../lib/openapi";
import { registerListTextNodes } from "./list";
import { registerGetTextNode } from "./get";
import { registerUpdateTextNode } from "./update";
import { registerDeleteTextNode } from "./delete";

export function registerTextNodeRoutes(r: Router) {
  registerListTextNodes(r);
  registerGetTextNode(r);
  registerUpdateTextNode(r);
  registerDeleteTextNode(r);
}
