import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { orgAccess, requirePermission } from "../../services/access";
import { getMember } from "../../services/members";
import type { Permission } from "../../services/permissions";

/** The member named in the path, once the caller holds `permission` (else 403; 404 when the organization has no such
 * member). */
export async function memberWith(c: Context<AppEnv>, organizationPk: string, id: string, permission: Permission) {
  const access = await orgAccess(c, organizationPk);
  requirePermission(access, permission);
  const member = await getMember(c.var.db, access.organizationId, id);
  return { access, member };
}
