import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../lib/openapi";
import { authorize } from "../../services/access";
import { createSqlDatabase } from "../../services/sql/databases";
import { SqlDatabaseWrite } from "../../services/records/sql-databases";
import { SQL_DATABASES_TAG, SqlDatabaseSchema } from "./schema";

const route = createRoute({
  method: "post",
  path: "/sql-databases/",
  tags: [SQL_DATABASES_TAG],
  summary: "Add a SQL database",
  description:
    "Needs `sql_database.manage`. `managed`: a database of the service's own, one per SQL database (no " +
    "`databaseUrl`; create tables from CSV or XLSX files " +
    "with `tables/`). `postgresql`: `databaseUrl` (postgresql://user:password@host:5432/db, optional " +
    "`?sslmode=require`), write-only and encrypted at rest " +
    "(503 without ENCRYPTION_KEY); the host passes the outbound address guard. Or `hyperdrive://BINDING`: a " +
    "Hyperdrive binding of the deployment that the " +
    "operator offers to the organization (SQL_HYPERDRIVE_BINDINGS), connected to as the binding says (400 " +
    "naming it when it is not available). " +
    "It is saved without being reached: the connection is checked in the " +
    "background, then `status` is connected (tables discovered, limited to `includeTables`) or failed with " +
    "`errorMessage`. mysql, oracle and mssql are " +
    "stored with status failed: not supported in this deployment. Non-owners must give it to one of their own " +
    "groups. Giving `chatbots` also needs `chatbot.manage`.",
  request: jsonBody(SqlDatabaseWrite),
  responses: { 201: json(SqlDatabaseSchema, "The created SQL database"), ...errorResponses(400, 403, 409, 503) },
});

export const registerCreateSqlDatabase = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "sql_database.manage");
    const writer = {
      access,
      userId: c.var.principal.userId,
      waitUntil: (p: Promise<unknown>) => c.executionCtx.waitUntil(p),
    };
    return c.json(await createSqlDatabase(c.env, c.var.db, writer, c.req.valid("json")), 201);
  });
