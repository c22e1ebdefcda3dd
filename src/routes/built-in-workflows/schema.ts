import { z } from "@hono/zod-openapi";
import { uuidParam } from "../../lib/openapi";

export const WORKFLOWS_TAG = "Built-in workflows";

export const BuiltInWorkflowSchema = z
  .object({
    id: z.string().openapi({
      description: "Fixed id; give it as an assistant's builtInWorkflow",
      example: "00000000-0000-7000-8000-00000000f001",
    }),
    name: z.string().openapi({ description: "The workflow's name", example: "Rewrite, retrieve, answer" }),
    description: z.string().openapi({
      description: "What the workflow does, step by step",
      example: "Rewrites the question, retrieves passages with it, and answers grounded in them.",
    }),
    steps: z.array(z.string()).openapi({
      description: "Step names, as contentPayload.steps reports them",
      example: ["rewrite_query", "retrieve", "answer"],
    }),
  })
  .openapi("BuiltInWorkflow");

export const WorkflowIdParams = z.object({ id: uuidParam("id", "Built-in workflow id") });
