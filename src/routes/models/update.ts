import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json, jsonBody } from "../../lib/openapi";
import { currentAccess, requireOwner } from "../../services/access";
import { changeModel } from "../../services/model-users";
import { MODELS_TAG, type ModelKindRoute } from "./kinds";
import { modelRecord, ModelPatch, ModelSchema } from "../../services/records/models";

export const registerUpdateModel = (r: Router, k: ModelKindRoute) =>
  r.openapi(
    createRoute({
      method: "patch",
      path: `${k.path}{id}/`,
      tags: [MODELS_TAG],
      summary: `Update a ${k.noun} of the organization`,
      description:
        "Organization owners only; built-in models cannot be changed (403). `apiKey: null` removes the stored key. " +
        "Pointed at another server (`baseUrl` to another host or port, other than only to https), the model keeps " +
        "no stored key: it is removed unless the request gives a new `apiKey`." +
        (k.kind === "embedding"
          ? " `provider`, `modelName` and `dimensions` cannot change while a knowledge base using the model holds " +
            "indexed files or FAQs (400 naming the field): its stored vectors would no longer match."
          : ""),
      request: { params: IdParams, ...jsonBody(ModelPatch) },
      responses: { 200: json(ModelSchema, `The updated ${k.noun}`), ...errorResponses(400, 403, 404, 409) },
    }),
    async (c) => {
      const access = await currentAccess(c);
      requireOwner(access);
      const { id } = c.req.valid("param");
      const row = await changeModel(c.var.db, c.env, access.organizationId, k.kind, id, c.req.valid("json"));
      return c.json(await modelRecord(row, c.env), 200);
    },
  );
