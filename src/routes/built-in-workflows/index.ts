import type { Router } from "../../lib/openapi";
import { registerListBuiltInWorkflows } from "./list";
import { registerGetBuiltInWorkflow } from "./get";

export function registerBuiltInWorkflowRoutes(r: Router) {
  registerListBuiltInWorkflows(r);
  registerGetBuiltInWorkflow(r);
}
