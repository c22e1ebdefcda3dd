import type { Router } from "../../lib/openapi";
import { registerCreateTool } from "./create";
import { registerListTools } from "./list";
import { registerGetTool } from "./get";
import { registerUpdateTool } from "./update";
import { registerDeleteTool } from "./delete";

export function registerToolRoutes(r: Router) {
  registerListTools(r);
  registerCreateTool(r);
  registerGetTool(r);
  registerUpdateTool(r);
  registerDeleteTool(r);
}
