import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { currentAccess, requirePermission } from "../../services/access";
import { getChatbotForRead } from "../../services/chatbots/visibility";
import type { Permission } from "../../services/permissions";

/** The assistant named in the path, if the caller holds `permission` and may see it (else 403 / 404). */
export async function chatbotWith(c: Context<AppEnv>, chatbotPk: string, permission: Permission) {
  const access = await currentAccess(c);
  requirePermission(access, permission);
  const chatbot = await getChatbotForRead(c.var.db, access, c.var.principal.userId, chatbotPk);
  return { access, chatbot };
}
