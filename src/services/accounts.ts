import { count } from "drizzle-orm";
import type { Db } from "../env";
import { apiKeys, members, organizations, organizationShards, users } from "../db/schema";
import { hashPassword, newApiKey, sha256Hex } from "../lib/crypto";
import { isUniqueViolation } from "../lib/errors";
import { uuidv7 } from "../lib/ids";
import { SELF_HOSTED } from "./plans";
import { placement } from "./shards";

export interface NewAccount {
  email: string;
  name: string;
  passwordHash: string | null;
  company: string;
  isStaff?: boolean;
  /** The organization's plan (default: the self-hosted plan, which limits nothing). */
  planId?: string;
  /** Whether the organization starts approved (the bootstrap organization does). */
  approved?: boolean;
  /** Use this key instead of a random one (bootstrap). */
  key?: string;
  keyName?: string;
}

/**
 * Statements that create an organization with its owner as first member, and its directory row: its data plane in
 * its shard from the start (services/shards `dataDb`; docs/decisions.md, "The organization's data plane in its shard").
 */
export function organizationInserts(
  db: Db,
  ownerId: string,
  name: string,
  organizationId = uuidv7(),
  planId = SELF_HOSTED.id,
  approved = false,
) {
  return [
    db.insert(organizations).values({
      id: organizationId,
      name,
      ownerId,
      planId,
      approvalStatus: approved ? "approved" : "pending",
      creditWalletId: uuidv7(),
    }),
    db.insert(members).values({ organizationId, userId: ownerId, isOwner: true }),
    db
      .insert(organizationShards)
      .values({ organizationId, shard: placement(organizationId), since: Date.now(), dataPlane: "shard" }),
  ] as const;
}

export async function apiKeyValues(
  userId: string,
  organizationId: string | null,
  name: string,
  key = newApiKey(),
  expiresAt: number | null = null,
) {
  return {
    key,
    values: {
      id: uuidv7(),
      userId,
      organizationId,
      name,
      prefix: key.slice(0, 8),
      keyHash: await sha256Hex(key),
      expiresAt,
    },
  };
}

/** User, their organization, owner membership and first API key, written atomically. */
export async function createAccount(db: Db, input: NewAccount) {
  const userId = uuidv7();
  const organizationId = uuidv7();
  const { key, values } = await apiKeyValues(userId, organizationId, input.keyName ?? "Default key", input.key);
  await db.batch([
    db.insert(users).values({
      id: userId,
      email: input.email.toLowerCase(),
      name: input.name,
      passwordHash: input.passwordHash,
      company: input.company,
      isStaff: input.isStaff ?? false,
    }),
    ...organizationInserts(db, userId, input.company, organizationId, input.planId, input.approved),
    db.insert(apiKeys).values(values),
  ]);
  return { userId, organizationId, key, apiKeyId: values.id };
}

/**
 * CONTRACT section 3: with BOOTSTRAP_API_KEY set and no user yet, the first request with that key
 * creates an owner (staff) user, an approved organization on the default plan, and the key. Called only when a
 * presented key equal to BOOTSTRAP_API_KEY is unknown, so it costs nothing on the normal path.
 * Returns whether it created the account.
 */
export async function bootstrapOwner(
  db: Db,
  key: string,
  email = "admin@example.com",
  planId?: string,
  password?: string,
): Promise<boolean> {
  const [{ n }] = await db.select({ n: count() }).from(users);
  if (n > 0) return false;
  // With BOOTSTRAP_PASSWORD the administrator can also sign in to the console with e-mail and password
  // (docs/decisions.md, "The first administrator's sign-in").
  const passwordHash = password ? await hashPassword(password) : null;
  try {
    await createAccount(db, {
      email,
      name: "Administrator",
      passwordHash,
      company: "Default organization",
      isStaff: true,
      approved: true,
      planId,
      key,
      keyName: "Bootstrap key",
    });
    return true;
  } catch (err) {
    // Another isolate bootstrapped at the same moment: the unique email or key hash says so.
    if (isUniqueViolation(err)) return true;
    throw err;
  }
}
