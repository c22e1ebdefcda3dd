import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, noContent } from "../../lib/openapi";
import { currentAccess, requireOwner } from "../../services/access";
import { deleteModel, getOwnModel } from "../../services/models";
import { requireModelUnused } from "../../services/model-users";
import { MODELS_TAG, type ModelKindRoute } from "./kinds";

export const registerDeleteModel = (r: Router, k: ModelKindRoute) =>
  r.openapi(
    createRoute({
      method: "delete",
      path: `${k.path}{id}/`,
      tags: [MODELS_TAG],
      summary: `Delete a ${k.noun} of the organization`,
      description:
        "Organization owners only; built-in models cannot be deleted (403), nor a model an assistant or a " +
        "knowledge base still uses (400 `model_in_use`, naming them).",
      request: { params: IdParams },
      responses: { 204: noContent, ...errorResponses(400, 403, 404) },
    }),
    async (c) => {
      const access = await currentAccess(c);
      requireOwner(access);
      const row = await getOwnModel(c.var.db, access.organizationId, c.req.valid("param").id, k.kind);
      await requireModelUnused(c.var.db, row);
      await deleteModel(c.var.db, row.id);
      return c.body(null, 204);
    },
  );
