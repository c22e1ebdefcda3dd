import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { orgAccess, requirePermission } from "../../services/access";
import { findGroup } from "../../services/groups";
import type { Permission } from "../../services/permissions";

/** The group named in the path, once the caller holds `permission` (else 403; 404 when the organization has no such
 * group). */
export async function groupWith(c: Context<AppEnv>, organizationPk: string, groupPk: string, permission: Permission) {
  const access = await orgAccess(c, organizationPk);
  requirePermission(access, permission);
  const group = await findGroup(c.var.db, access.organizationId, groupPk);
  return { access, group };
}
