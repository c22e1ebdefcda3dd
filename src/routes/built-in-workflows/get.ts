import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { notFound } from "../../lib/errors";
import { BUILT_IN_WORKFLOWS } from "../../services/agent/workflows";
import { BuiltInWorkflowSchema, WORKFLOWS_TAG, WorkflowIdParams } from "./schema";

const route = createRoute({
  method: "get",
  path: "/built-in-workflows/{id}/",
  tags: [WORKFLOWS_TAG],
  summary: "Get a built-in workflow",
  request: { params: WorkflowIdParams },
  responses: { 200: json(BuiltInWorkflowSchema, "The workflow"), ...errorResponses(404) },
});

export const registerGetBuiltInWorkflow = (r: Router) =>
  r.openapi(route, (c) => {
    const found = BUILT_IN_WORKFLOWS.find((w) => w.id === c.req.valid("param").id);
    if (!found) throw notFound("Built-in workflow not found.");
    return c.json({ ...found, steps: [...found.steps] }, 200);
  });
