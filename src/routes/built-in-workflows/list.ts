import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { BUILT_IN_WORKFLOWS } from "../../services/agent/workflows";
import { BuiltInWorkflowSchema, WORKFLOWS_TAG } from "./schema";

const route = createRoute({
  method: "get",
  path: "/built-in-workflows/",
  tags: [WORKFLOWS_TAG],
  summary: "List the built-in workflows",
  description:
    "The catalogue shipped with the service (same for every organization). An assistant in `workflow` reply " +
    "mode runs the one its `builtInWorkflow` names.",
  responses: { 200: json(z.array(BuiltInWorkflowSchema), "The workflows"), ...errorResponses() },
});

export const registerListBuiltInWorkflows = (r: Router) =>
  r.openapi(route, (c) =>
    c.json(
      BUILT_IN_WORKFLOWS.map((w) => ({ ...w, steps: [...w.steps] })),
      200,
    ),
  );
