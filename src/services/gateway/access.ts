// The OpenAI-compatible gateway (`POST /chat/completions`, docs/decisions.md "AI gateway"): who may
// use it, and the model a request names.
import { and, asc, eq, sql } from "drizzle-orm";
import type { Context } from "hono";
import type { AppEnv, Db } from "../../env";
import { models, organizations } from "../../db/schema";
import { forbidden, notFound } from "../../lib/errors";
import { currentAccess, type OrgAccess } from "../access";
import { getModel, usableBy, type ModelRow } from "../models";
import { tableCache } from "../../db/write-watch";

/** Whether an organization may use the gateway, and models by reference, remembered 2 s (docs/decisions.md,
 * "Per-isolate caches"). */
const gatewaySwitches = tableCache<boolean>([organizations]);
const chatModels = tableCache<ModelRow | null>([models]);

/**
 * The organization the call acts in, which must have the gateway switched on (`canUseAiGateway`,
 * set by platform staff). Any member may use it: membership is the only requirement.
 */
export async function gatewayAccess(c: Context<AppEnv>): Promise<OrgAccess> {
  const access = await currentAccess(c);
  const allowed = await gatewaySwitches.remember(access.organizationId, async () => {
    const [org] = await c.var.db
      .select({ canUseAiGateway: organizations.canUseAiGateway })
      .from(organizations)
      .where(eq(organizations.id, access.organizationId));
    return !!org?.canUseAiGateway;
  });
  if (!allowed) throw forbidden("The AI gateway is not enabled for this organization (canUseAiGateway).");
  return access;
}

/**
 * The large language model named by `model`: its id, else its name. On a name shared by a
 * built-in model and one of the organization's, the organization's own wins, then the oldest.
 */
export async function findChatModel(db: Db, organizationId: string, ref: string): Promise<ModelRow> {
  const row = await chatModels.remember(`${organizationId}:${ref}`, async () => {
    const byId = await getModel(db, organizationId, ref, "llm");
    if (byId) return byId;
    const [byName] = await db
      .select()
      .from(models)
      .where(and(eq(models.kind, "llm"), eq(models.name, ref), usableBy(organizationId)))
      .orderBy(sql`${models.organizationId} is null`, asc(models.createdAt))
      .limit(1);
    return byName ?? null;
  });
  if (!row) throw notFound(`The model "${ref.slice(0, 200)}" does not exist or you do not have access to it.`);
  return row;
}
