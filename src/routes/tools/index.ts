import type { Router } from "../../lib/openapi";
import { registerCreateTool } from "./create";
import { registerListTools } from "./list";
import { registerGetTool } from "./get";
import { registerUpdateTool } from "./update";
import { registerDeleteTool } from "./delete";
import { registerAvailableTools } from "./available-tools";
import { registerToolCredentials } from "./credentials";

export function registerToolRoutes(r: Router) {
  registerListTools(r);
  registerCreateTool(r);
  // Before `/tools/{id}/`, which would take `available-tools` for an id.
  registerAvailableTools(r);
  registerGetTool(r);
  registerUpdateTool(r);
  registerDeleteTool(r);
  registerToolCredentials(r);
}
