import { and, asc, eq } from "drizzle-orm";
import type { Context } from "hono";
import type { AppEnv, Db } from "../env";
import { groupMembers, groupPermissions, groups, members, organizations } from "../db/schema";
import { tableCache } from "../db/write-watch";
import { ApiError, forbidden, notFound } from "../lib/errors";
import { isUuid } from "../lib/ids";
import { dataDb } from "./shards";
import { conversationDb } from "./shards/parts";
import { type ConversationView, requireConversationIn } from "./conversation/views";
import { grants, permissionCodename, type Permission } from "./permissions";

/** What the caller may do in one organization. */
export interface OrgAccess {
  organizationId: string;
  memberId: string;
  isOwner: boolean;
  groupIds: string[];
  permissions: Set<Permission>;
}

export type Ctx = Context<AppEnv>;

/**
 * Memberships and permissions are remembered for 2 seconds per isolate (docs/decisions.md,
 * "Per-isolate caches"); a write to the tables they are read from clears them here at once.
 */
const remembered = tableCache<OrgAccess | string | null>([
  members,
  groups,
  groupMembers,
  groupPermissions,
  organizations,
]);

async function loadAccess(c: Ctx, organizationId: string): Promise<OrgAccess | null> {
  const access = await remembered.remember(`${c.var.principal.userId}:${organizationId}`, () =>
    readAccess(c.var.db, c.var.principal.userId, organizationId),
  );
  if (access) {
    // The request log names the organization a request acted in (src/middleware/request-log.ts).
    c.set("organizationId", access.organizationId);
    c.set("data", await dataDb(c.env, access.organizationId));
  }
  return access;
}

/**
 * The part of the caller's organization's data plane holding one of its conversations (services/shards/parts.ts): for
 * most organizations `c.var.data` itself. After `authorize`.
 */
export function conversationData(c: Ctx, conversationId: string): Promise<Db> {
  if (!c.var.organizationId) throw new Error("conversationData before authorize");
  return conversationDb(c.env, c.var.organizationId, conversationId);
}

/** The caller's organization's conversation `id`, as the API shows it; 404 (saying `detail`) when it has none of that
 * id. After `authorize`. */
export async function requireConversation(c: Ctx, id: string, detail?: string): Promise<ConversationView> {
  if (!c.var.organizationId) throw new Error("requireConversation before authorize");
  return requireConversationIn(c.env, c.var.db, c.var.organizationId, id, detail);
}

/** The user's membership and permissions in the organization as stored now (null: not a member), uncached. */
export async function readAccess(db: Db, userId: string, organizationId: string): Promise<OrgAccess | null> {
  const rows = await db
    .select({
      memberId: members.id,
      isOwner: members.isOwner,
      groupId: groupMembers.groupId,
      permissionId: groupPermissions.permissionId,
    })
    .from(members)
    .leftJoin(groupMembers, eq(groupMembers.memberId, members.id))
    .leftJoin(groupPermissions, eq(groupPermissions.groupId, groupMembers.groupId))
    .where(and(eq(members.organizationId, organizationId), eq(members.userId, userId)));
  let access: OrgAccess | null = null;
  if (rows.length) {
    const permissions = new Set<Permission>();
    const groupIds = new Set<string>();
    for (const r of rows) {
      if (r.groupId) groupIds.add(r.groupId);
      const codename = r.permissionId ? permissionCodename(r.permissionId) : undefined;
      if (codename) permissions.add(codename);
    }
    access = {
      organizationId,
      memberId: rows[0].memberId,
      isOwner: rows[0].isOwner,
      groupIds: [...groupIds],
      permissions,
    };
  }
  return access;
}

/** Access to an organization named in the path; not a member means it does not exist for you. */
export async function orgAccess(c: Ctx, organizationId: string): Promise<OrgAccess> {
  const access = isUuid(organizationId) ? await loadAccess(c, organizationId) : null;
  if (!access) throw notFound();
  return access;
}

/**
 * The organization the request acts in (`currentAccess`), or null when it acts in none (a user in no organization, or
 * naming one they are not in): a new API key's default organization, as such a user still gets a key, one without.
 */
export async function actingOrganizationOrNone(c: Ctx): Promise<string | null> {
  try {
    return (await currentAccess(c)).organizationId;
  } catch (err) {
    if (err instanceof ApiError) return null;
    throw err;
  }
}

/**
 * The organization a request acts in when its path names none: `X-Organization-Id`, else the
 * key's organization, else the caller's oldest membership. An API key made in an organization its user is no longer
 * a member of acts in none of theirs (403): it is an integration of that organization, and in the oldest membership
 * it would carry that organization's traffic (its customers, its messages) into another. A console session is the
 * person: one whose organization was left falls back to the oldest membership, as the switcher's list does.
 */
export async function currentAccess(c: Ctx): Promise<OrgAccess> {
  const named = c.req.header("X-Organization-Id");
  const { defaultOrganizationId, apiKeyId } = c.var.principal;
  const wanted = named ?? defaultOrganizationId;
  if (wanted) {
    const access = isUuid(wanted) ? await loadAccess(c, wanted) : null;
    if (access) return access;
    if (named) throw notFound("Organization not found.");
    if (apiKeyId)
      throw forbidden(
        "This API key was made in an organization you are no longer a member of; it acts in no other unless " +
          "`X-Organization-Id` names one. Make a key in the organization it should act in.",
      );
  }
  const first = await remembered.remember(`${c.var.principal.userId}:*`, async () => {
    const [row] = await c.var.db
      .select({ organizationId: members.organizationId })
      .from(members)
      .where(eq(members.userId, c.var.principal.userId))
      .orderBy(asc(members.createdAt))
      .limit(1);
    return row?.organizationId ?? null;
  });
  if (!first) throw forbidden("You are not a member of any organization.");
  const access = await loadAccess(c, first);
  if (!access) throw forbidden("You are not a member of any organization.");
  return access;
}

export function can(access: OrgAccess, permission: Permission): boolean {
  return access.isOwner || grants(access.permissions, permission);
}

/** The caller's access as if they also held `permission`: for reading what another right lets them use. */
export const withPermission = (access: OrgAccess, permission: Permission): OrgAccess => ({
  ...access,
  permissions: new Set([...access.permissions, permission]),
});

/** Authorization, named in each handler: owners pass, others need the permission through a group. */
export function requirePermission(access: OrgAccess, permission: Permission): void {
  if (!can(access, permission)) throw forbidden(`This action requires the "${permission}" permission.`);
}

/**
 * The caller's access in the organization the request acts in, once it holds `permission`: how a handler
 * opens, naming what it needs.
 */
export async function authorize(c: Ctx, permission: Permission): Promise<OrgAccess> {
  const access = await currentAccess(c);
  requirePermission(access, permission);
  return access;
}

/**
 * Non-owners may only hand out permissions they hold themselves, so `group.manage` cannot be
 * turned into more rights by granting them to a group, or by joining a group that has them.
 */
export function requireGrantable(access: OrgAccess, permissionIds: Iterable<string>): void {
  if (access.isOwner) return;
  const missing = [...permissionIds].map(permissionCodename).filter((p): p is Permission => !!p && !can(access, p));
  if (missing.length)
    throw forbidden(`You can only grant permissions you hold yourself; missing: ${missing.join(", ")}.`);
}

export function requireOwner(access: OrgAccess): void {
  if (!access.isOwner) throw forbidden("Only an owner of the organization can do this.");
}
