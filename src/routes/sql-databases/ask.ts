import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json, jsonBody } from "../../lib/openapi";
import { ApiError, fieldError } from "../../lib/errors";
import { authorize } from "../../services/access";
import { getModel } from "../../services/models";
import { getSqlDatabase } from "../../services/sql/access";
import { askDatabase } from "../../services/sql/ask";
import { notSupportedMessage, UNSUPPORTED_TYPES } from "../../services/sql/write";
import { LOCAL_LLM, SQL_DATABASES_TAG, SqlAskBody, SqlAskOutcome } from "./schema";

const route = createRoute({
  method: "post",
  path: "/sql-databases/{id}/ask/",
  tags: [SQL_DATABASES_TAG],
  summary: "Ask a question: the SQL a model writes for it, and the rows",
  description:
    "Needs `sql_database.view` and a database you can see. The model writes one query with the same tool, " +
    "read-only check, row limit " +
    "(SQL_QUERY_ROW_LIMIT) and timeout (SQL_QUERY_TIMEOUT_MS) as in assistants' agent replies, and the query " +
    "runs; nothing is stored. " +
    "A query the model does not write, or that is refused or fails, is `status: failure` with `error` (200). " +
    "400 when the database has " +
    "no ready tables, or for a type that cannot be queried.",
  request: { params: IdParams, ...jsonBody(SqlAskBody) },
  responses: {
    200: json(SqlAskOutcome, "What the model wrote and what the query returned"),
    ...errorResponses(400, 403, 404),
  },
});

export const registerAskSqlDatabase = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "sql_database.view");
    const database = await getSqlDatabase(c.var.db, access, c.req.valid("param").id);
    const body = c.req.valid("json");
    if (UNSUPPORTED_TYPES.includes(database.databaseType))
      throw new ApiError(400, "not_supported", notSupportedMessage(database.databaseType));
    const model = await getModel(c.var.db, access.organizationId, body.largeLanguageModel ?? LOCAL_LLM, "llm");
    if (!model) throw fieldError("largeLanguageModel", "No such language model in your organization.");
    return c.json(await askDatabase(c.env, c.var.db, database, body.question, model), 200);
  });
