import { createRoute } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../../env";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json, jsonBody, noContent } from "../../lib/openapi";
import { ms } from "../../lib/time";
import { authorize, type OrgAccess } from "../../services/access";
import {
  type CredentialTarget,
  giveMemberCredential,
  revokeMemberCredential,
  type TargetAsRead,
} from "../../services/mcp/credentials";
import { CredentialStatusSchema, CredentialWrite } from "./schema";

/** The connector or MCP tool named in the path, once the caller may use it (else 403 / 404). */
export type TargetOf<T = CredentialTarget> = (c: Context<AppEnv>, access: OrgAccess, id: string) => Promise<T>;

interface Operation<T = CredentialTarget> {
  summary: string;
  description: string;
  target: TargetOf<T>;
}

interface CredentialRoutes {
  path: string;
  tag: string;
  /** Its target with the server URL read: the one the credential is given for. */
  store: Operation<TargetAsRead>;
  remove: Operation;
}

/**
 * A member's own credential for a connector or an MCP tool (`{path}` ends in `/{id}/credentials/`): stored by POST,
 * deleted by DELETE, both with `tool.view`. Connectors and tools differ only in how the path's id is found.
 */
export function registerCredentialRoutes(r: Router, { path, tag, store, remove }: CredentialRoutes) {
  const storeRoute = createRoute({
    method: "post",
    path,
    tags: [tag],
    summary: store.summary,
    description: store.description,
    request: { params: IdParams, ...jsonBody(CredentialWrite) },
    responses: { 201: json(CredentialStatusSchema, "Stored"), ...errorResponses(400, 403, 404, 409, 503) },
  });
  const deleteRoute = createRoute({
    method: "delete",
    path,
    tags: [tag],
    summary: remove.summary,
    description: remove.description,
    request: { params: IdParams },
    responses: { 204: noContent, ...errorResponses(403, 404) },
  });

  r.openapi(storeRoute, async (c) => {
    const access = await authorize(c, "tool.view");
    const { id } = c.req.valid("param");
    const read = () => store.target(c, access, id);
    const { headers } = c.req.valid("json");
    const row = await giveMemberCredential(c.var.db, c.env, access.organizationId, access.memberId, read, headers);
    return c.json({ hasCredential: true, createdAt: ms(row.createdAt), updatedAt: ms(row.updatedAt) }, 201);
  });
  r.openapi(deleteRoute, async (c) => {
    const access = await authorize(c, "tool.view");
    const target = await remove.target(c, access, c.req.valid("param").id);
    await revokeMemberCredential(c.var.db, access.organizationId, access.memberId, target);
    return c.body(null, 204);
  });
}
