import { createRoute } from "@hono/zod-openapi";
import { and, asc, count, eq, sql } from "drizzle-orm";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { PageQuery, pageOf, pageParams, pageResponse } from "../../lib/pagination";
import { models } from "../../db/schema";
import { currentAccess } from "../../services/access";
import { usableBy } from "../../services/models";
import { MODELS_TAG, type ModelKindRoute } from "./kinds";
import { modelRecord } from "../../services/records/models";
import { ModelSchema } from "./schema";

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
      const where = and(eq(models.kind, k.kind), usableBy(access.organizationId));
      const [[{ n }], rows] = await Promise.all([
        c.var.db.select({ n: count() }).from(models).where(where),
        c.var.db
          .select()
          .from(models)
          .where(where)
          .orderBy(sql`${models.organizationId} is not null`, asc(models.createdAt), asc(models.id))
          .limit(p.limit)
          .offset(p.offset),
      ]);
      const results = await Promise.all(rows.map((row) => modelRecord(row, c.env)));
      return c.json(pageResponse(c, p, n, results), 200);
    },
  );
