import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { currentAccess, requirePermission } from "../../services/access";
import { getKnowledgeBaseForRead } from "../../services/knowledge/knowledge-bases";
import type { Permission } from "../../services/permissions";

/** The knowledge base named in the path, if the caller holds `permission` (when the operation needs one; else 403) and
 * may see it (else 404). */
export async function knowledgeBaseWith(c: Context<AppEnv>, knowledgeBaseId: string, permission?: Permission) {
  const access = await currentAccess(c);
  if (permission) requirePermission(access, permission);
  const kb = await getKnowledgeBaseForRead(c.var.db, access, c.var.principal.userId, knowledgeBaseId);
  return { access, kb };
}
