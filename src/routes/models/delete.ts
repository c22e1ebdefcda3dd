import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, noContent } from "../../lib/openapi";
import { badRequest } from "../../lib/errors";
import { currentAccess, requireOwner } from "../../services/access";
import { assistantsUsingModel, deleteModel, getOwnModel } from "../../services/models";
import { MODELS_TAG, type ModelKindRoute } from "./kinds";

export const registerDeleteModel = (r: Router, k: ModelKindRoute) =>
  r.openapi(
    createRoute({
      method: "delete",
      path: `${k.path}{id}/`,
      tags: [MODELS_TAG],
      summary: `Delete a ${k.noun} of the organization`,
      description:
        "Organization owners only; built-in models cannot be deleted (403), nor a model an assistant still uses (400).",
      request: { params: IdParams },
      responses: { 204: noContent, ...errorResponses(400, 403, 404) },
    }),
    async (c) => {
      const access = await currentAccess(c);
      requireOwner(access);
      const row = await getOwnModel(c.var.db, access.organizationId, c.req.valid("param").id, k.kind);
      const users = await assistantsUsingModel(c.var.db, row.id);
      if (users.length) {
        throw badRequest(
          `This model is still used by assistants (${users.join(", ")}); give them another model first.`,
          undefined,
          "model_in_use",
        );
      }
      await deleteModel(c.var.db, row.id);
      return c.body(null, 204);
    },
  );
