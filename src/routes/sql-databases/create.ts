import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../lib/openapi";
import { conflict, fieldError, isUniqueViolation } from "../../lib/errors";
import { encryptSecret } from "../../lib/crypto";
import { uuidv7 } from "../../lib/ids";
import { sqlDatabases } from "../../db/schema";
import { currentAccess, requirePermission } from "../../services/access";
import { connectionProblem, maskConnectionUrl } from "../../services/sql/connection";
import {
  checkSqlChatbots,
  checkSqlGroups,
  notSupportedMessage,
  refreshSqlDatabase,
  sqlLinkStatements,
  UNSUPPORTED_TYPES,
} from "../../services/sql/write";
import { sqlDatabaseView } from "../../services/sql/views";
import { sqlDatabaseRecord } from "../../services/records/sql-databases";
import { SQL_DATABASES_TAG, SqlDatabaseSchema, SqlDatabaseWrite } from "./schema";

const route = createRoute({
  method: "post",
  path: "/sql-databases/",
  tags: [SQL_DATABASES_TAG],
  summary: "Add a SQL database",
  description:
    "Needs `sql_database.manage`. `managed`: a database of the service's own, one per SQL database (no `databaseUrl`; create tables from CSV or XLSX files " +
    "with `tables/`). `postgresql`: `databaseUrl` (postgresql://user:password@host:5432/db, optional `?sslmode=require`), write-only and encrypted at rest " +
    "(503 without ENCRYPTION_KEY); the host passes the outbound address guard. Or `hyperdrive://BINDING`: a Hyperdrive binding of the deployment that the " +
    "operator offers to the organization (SQL_HYPERDRIVE_BINDINGS), connected to as the binding says (400 naming it when it is not available). " +
    "It is saved without being reached: the connection is checked in the " +
    "background, then `status` is connected (tables discovered, limited to `includeTables`) or failed with `errorMessage`. mysql, oracle and mssql are " +
    "stored with status failed: not supported in this deployment. Non-owners must give it to one of their own groups.",
  request: jsonBody(SqlDatabaseWrite),
  responses: { 201: json(SqlDatabaseSchema, "The created SQL database"), ...errorResponses(400, 403, 409, 503) },
});

export const registerCreateSqlDatabase = (r: Router) =>
  r.openapi(route, async (c) => {
    const db = c.var.db;
    const body = c.req.valid("json");
    const access = await currentAccess(c);
    requirePermission(access, "sql_database.manage");
    const managed = body.databaseType === "managed";
    if (managed && body.databaseUrl) throw fieldError("databaseUrl", "A managed database has no connection string.");
    if (managed && body.includeTables?.tables.length)
      throw fieldError("includeTables", "A managed database offers all of its tables.");
    if (!managed && !body.databaseUrl) throw fieldError("databaseUrl", `Required for ${body.databaseType} databases.`);
    const problem = body.databaseUrl
      ? connectionProblem(c.env, body.databaseType, body.databaseUrl, access.organizationId)
      : null;
    if (problem) throw fieldError("databaseUrl", problem);
    const sealed = body.databaseUrl ? await encryptSecret(body.databaseUrl, c.env.ENCRYPTION_KEY) : null;
    const groupIds = await checkSqlGroups(
      db,
      access,
      body.groups === undefined ? undefined : (body.groups ?? []).map((g) => g.id),
      true,
    );
    const chatbotIds = await checkSqlChatbots(
      db,
      access,
      c.var.principal.userId,
      body.chatbots === undefined ? undefined : (body.chatbots ?? []).map((b) => b.id),
    );
    const unsupported = UNSUPPORTED_TYPES.includes(body.databaseType);
    const id = uuidv7();
    try {
      const [[row]] = await db.batch([
        db
          .insert(sqlDatabases)
          .values({
            id,
            organizationId: access.organizationId,
            createdById: c.var.principal.userId,
            name: body.name,
            description: body.description ?? "",
            databaseType: body.databaseType,
            databaseUrlSealed: sealed,
            databaseUrlMasked: body.databaseUrl ? maskConnectionUrl(body.databaseUrl) : null,
            includeTables: body.includeTables ?? null,
            isActive: body.isActive ?? true,
            status: managed ? "connected" : unsupported ? "failed" : "pending",
            errorMessage: unsupported ? notSupportedMessage(body.databaseType) : null,
          })
          .returning(),
        ...sqlLinkStatements(db, id, { groupIds, chatbotIds }, false),
      ]);
      if (row.status === "pending") c.executionCtx.waitUntil(refreshSqlDatabase(c.env, db, id));
      return c.json(sqlDatabaseRecord(await sqlDatabaseView(db, access, row)), 201);
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict(`A SQL database named "${body.name}" already exists.`);
      throw err;
    }
  });
