import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../lib/openapi";
import { currentAccess, requireOwner } from "../../services/access";
import { checkModelRules, createModel } from "../../services/models";
import { MODELS_TAG, type ModelKindRoute } from "./kinds";
import { modelRecord, ModelSchema, ModelWrite } from "../../services/records/models";

export const registerCreateModel = (r: Router, k: ModelKindRoute) =>
  r.openapi(
    createRoute({
      method: "post",
      path: k.path,
      tags: [MODELS_TAG],
      summary: `Add a ${k.noun} to the organization`,
      description: "Organization owners only. `apiKey` is write-only: it is stored encrypted and never returned.",
      request: jsonBody(ModelWrite),
      responses: { 201: json(ModelSchema, `The created ${k.noun}`), ...errorResponses(400, 403, 404) },
    }),
    async (c) => {
      const access = await currentAccess(c);
      requireOwner(access);
      const { apiKey, ...body } = c.req.valid("json");
      const values = { ...body, baseUrl: body.baseUrl ?? null, dimensions: body.dimensions ?? null };
      checkModelRules(k.kind, values);
      const row = await createModel(c.var.db, c.env, access.organizationId, k.kind, values, apiKey);
      return c.json(await modelRecord(row, c.env), 201);
    },
  );
