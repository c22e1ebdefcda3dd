import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json } from "../../lib/openapi";
import { notFound } from "../../lib/errors";
import { currentAccess, requireOwner } from "../../services/access";
import { getModel } from "../../services/models";
import { testConnection } from "../../services/model-check";
import { MODELS_TAG, type ModelKindRoute } from "./kinds";

const ConnectionTestSchema = z
  .object({
    ok: z.boolean().openapi({ description: "Whether the model answered as its record says it should", example: true }),
    durationMs: z.number().int().openapi({ description: "Time the test took", example: 412 }),
    detail: z
      .string()
      .openapi({ description: "What happened; on failure, the provider's reason", example: "The model answered." }),
    sample: z
      .string()
      .nullable()
      .openapi({ description: "A short proof: the reply's start, the vector size, or the scores", example: "OK" }),
  })
  .openapi("ModelConnectionTest");

export const registerTestModelConnection = (r: Router, k: ModelKindRoute) =>
  r.openapi(
    createRoute({
      method: "post",
      path: `${k.path}{id}/test-connection/`,
      tags: [MODELS_TAG],
      summary: `Test the connection of a ${k.noun}`,
      description:
        "Organization owners only. Sends the model one small request of its kind (a short chat, one " +
        "embedding, two reranked documents) " +
        "and reports the outcome: a provider that fails or does not answer within 15 s is `ok: false` with " +
        "its reason, not an error.",
      request: { params: IdParams },
      responses: { 200: json(ConnectionTestSchema, "The outcome"), ...errorResponses(403, 404) },
    }),
    async (c) => {
      const access = await currentAccess(c);
      requireOwner(access);
      const row = await getModel(c.var.db, access.organizationId, c.req.valid("param").id, k.kind);
      if (!row) throw notFound();
      return c.json(await testConnection(c.env, row), 200);
    },
  );
