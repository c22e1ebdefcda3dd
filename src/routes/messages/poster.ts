import type { Context } from "hono";
import type { AppEnv } from "../../env";
import type { OrgAccess } from "../../services/access";
import type { Poster } from "../../services/conversation/api-messages";

/** The caller posting a message: their organization and user, the API's origin, the request's `waitUntil`. */
export const poster = (c: Context<AppEnv>, access: OrgAccess): Poster => ({
  organizationId: access.organizationId,
  userId: c.var.principal.userId,
  origin: new URL(c.req.url).origin,
  waitUntil: (p) => c.executionCtx.waitUntil(p),
});
