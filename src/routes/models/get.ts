import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json } from "../../lib/openapi";
import { notFound } from "../../lib/errors";
import { currentAccess } from "../../services/access";
import { getModel } from "../../services/models";
import { MODELS_TAG, type ModelKindRoute } from "./kinds";
import { modelRecord, ModelSchema } from "../../services/records/models";

export const registerGetModel = (r: Router, k: ModelKindRoute) =>
  r.openapi(
    createRoute({
      method: "get",
      path: `${k.path}{id}/`,
      tags: [MODELS_TAG],
      summary: `Get a ${k.noun}`,
      description: "A built-in model or one of the current organization's. Any member may read.",
      request: { params: IdParams },
      responses: { 200: json(ModelSchema, `The ${k.noun}`), ...errorResponses(403, 404) },
    }),
    async (c) => {
      const access = await currentAccess(c);
      const row = await getModel(c.var.db, access.organizationId, c.req.valid("param").id, k.kind);
      if (!row) throw notFound();
      return c.json(await modelRecord(row, c.env), 200);
    },
  );
