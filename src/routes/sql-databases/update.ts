import { createRoute } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json, jsonBody } from "../../lib/openapi";
import { conflict, fieldError, isUniqueViolation } from "../../lib/errors";
import { encryptSecret } from "../../lib/crypto";
import { sqlDatabaseGroups, sqlDatabases } from "../../db/schema";
import { currentAccess } from "../../services/access";
import { getSqlDatabase } from "../../services/sql/access";
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
import { SQL_DATABASES_TAG, SqlDatabasePatch, SqlDatabaseSchema, SqlDatabaseWrite } from "./schema";

const routeFor = (method: "put" | "patch") =>
  createRoute({
    method,
    path: "/sql-databases/{id}/",
    tags: [SQL_DATABASES_TAG],
    summary: method === "put" ? "Replace a SQL database's settings" : "Update some settings of a SQL database",
    description:
      "Needs `sql_database.manage` and a database you can see. " +
      (method === "put" ? "`name` and `databaseType` are required; " : "") +
      "fields left out keep their value (a `databaseUrl` left out, or sent back masked, keeps the stored one). `databaseType` cannot change. " +
      "A new connection string or `includeTables` checks the connection again in the background.",
    request: { params: IdParams, ...jsonBody(method === "put" ? SqlDatabaseWrite : SqlDatabasePatch) },
    responses: { 200: json(SqlDatabaseSchema, "The updated SQL database"), ...errorResponses(400, 403, 404, 409, 503) },
  });

export function registerUpdateSqlDatabase(r: Router) {
  for (const route of [routeFor("put"), routeFor("patch")]) {
    r.openapi(route, async (c) => {
      const db = c.var.db;
      const access = await currentAccess(c);
      const current = await getSqlDatabase(db, access, c.req.valid("param").id, "sql_database.manage");
      const body = c.req.valid("json");
      if (body.databaseType !== undefined && body.databaseType !== current.databaseType)
        throw fieldError("databaseType", "Cannot be changed after creation.");
      const managed = current.databaseType === "managed";
      const url = body.databaseUrl && body.databaseUrl !== current.databaseUrlMasked ? body.databaseUrl : undefined;
      if (managed && url) throw fieldError("databaseUrl", "A managed database has no connection string.");
      if (managed && body.includeTables?.tables.length)
        throw fieldError("includeTables", "A managed database offers all of its tables.");
      if (!managed && body.databaseUrl === null)
        throw fieldError("databaseUrl", `Required for ${current.databaseType} databases.`);
      const problem = url ? connectionProblem(c.env, current.databaseType, url, current.organizationId) : null;
      if (problem) throw fieldError("databaseUrl", problem);
      const sealed = url ? await encryptSecret(url, c.env.ENCRYPTION_KEY) : undefined;
      const linked = await db
        .select({ id: sqlDatabaseGroups.groupId })
        .from(sqlDatabaseGroups)
        .where(eq(sqlDatabaseGroups.sqlDatabaseId, current.id));
      const groupIds =
        body.groups === undefined
          ? undefined
          : await checkSqlGroups(
              db,
              access,
              (body.groups ?? []).map((g) => g.id),
              false,
              linked.map((g) => g.id),
            );
      const chatbotIds = await checkSqlChatbots(
        db,
        access,
        c.var.principal.userId,
        body.chatbots === undefined ? undefined : (body.chatbots ?? []).map((b) => b.id),
      );
      const recheck =
        !managed &&
        !UNSUPPORTED_TYPES.includes(current.databaseType) &&
        (url !== undefined || body.includeTables !== undefined);
      const values = Object.fromEntries(
        Object.entries({
          name: body.name,
          description: body.description === null ? "" : body.description,
          isActive: body.isActive,
          includeTables: body.includeTables,
          databaseUrlSealed: sealed,
          databaseUrlMasked: url ? maskConnectionUrl(url) : undefined,
          ...(recheck ? { status: "pending" as const, errorMessage: null } : {}),
          ...(UNSUPPORTED_TYPES.includes(current.databaseType)
            ? { errorMessage: notSupportedMessage(current.databaseType) }
            : {}),
        }).filter(([, v]) => v !== undefined),
      );
      try {
        const [[row]] = await db.batch([
          db
            .update(sqlDatabases)
            .set({ ...values, updatedAt: Date.now() })
            .where(eq(sqlDatabases.id, current.id))
            .returning(),
          ...sqlLinkStatements(db, current.id, { groupIds, chatbotIds }, true),
        ]);
        if (recheck) c.executionCtx.waitUntil(refreshSqlDatabase(c.env, db, current.id));
        return c.json(sqlDatabaseRecord(await sqlDatabaseView(db, access, row)), 200);
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict(`A SQL database named "${body.name}" already exists.`);
        throw err;
      }
    });
  }
}
