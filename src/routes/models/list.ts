import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { PageQuery, pageOf, pageParams, pageResponse } from "../../lib/pagination";
import { currentAccess } from "../../services/access";
import { listModels } from "../../services/models";
import { MODELS_TAG, type ModelKindRoute } from "./kinds";
import { modelRecord, ModelSchema } from "../../services/records/models";

const ModelPage = pageOf(ModelSchema, "ModelPage");

export const registerListModels = (r: Router, k: ModelKindRoute) =>
  r.openapi(
    createRoute({
      method: "get",
      path: k.path,
      tags: [MODELS_TAG],
      summary: `List ${k.plural}`,
      description: "Built-in models first, then the current organization's own. Any member may list.",
      request: { query: PageQuery },
      responses: { 200: json(ModelPage, `Page of ${k.plural}`), ...errorResponses(400, 403, 404) },
    }),
    async (c) => {
      const access = await currentAccess(c);
      const p = pageParams(c.req.valid("query"));
      const page = await listModels(c.var.db, access.organizationId, k.kind, p);
      const results = await Promise.all(page.items.map((row) => modelRecord(row, c.env)));
      return c.json(pageResponse(c, p, page.count, results), 200);
    },
  );
