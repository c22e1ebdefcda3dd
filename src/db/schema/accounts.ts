import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { belongsTo, bool, createdAt, id, timestamps } from "./columns";

export const users = sqliteTable("users", {
  id: id(),
  email: text("email").notNull().unique(),
  name: text("name").notNull(),
  passwordHash: text("password_hash"),
  avatar: text("avatar"),
  company: text("company"),
  invitationCode: text("invitation_code"),
  /** Platform operators: may change plans and feature flags of any organization. */
  isStaff: bool("is_staff").notNull().default(false),
  lastLoginAt: integer("last_login_at"),
  ...timestamps(),
});

export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: id(),
    userId: belongsTo("user_id", () => users.id),
    /** The organization the key acts in unless X-Organization-Id says otherwise. */
    organizationId: text("organization_id"),
    name: text("name").notNull(),
    /** First characters of the key, shown in lists so a user can tell keys apart. */
    prefix: text("prefix").notNull(),
    keyHash: text("key_hash").notNull().unique(),
    expiresAt: integer("expires_at"),
    revokedAt: integer("revoked_at"),
    lastUsedAt: integer("last_used_at"),
    createdAt: createdAt(),
  },
  (t) => [index("api_keys_user_idx").on(t.userId)],
);

/**
 * Operator console sign-ins (CONTRACT section 16). The session id travels in an HttpOnly cookie;
 * only its SHA-256 is stored, like API keys. A session lapses 12 hours after it was last used.
 */
export const consoleSessions = sqliteTable(
  "console_sessions",
  {
    id: id(),
    userId: belongsTo("user_id", () => users.id),
    /** The organization it acts in unless X-Organization-Id says otherwise (a key's, when signed in with one). */
    organizationId: text("organization_id"),
    tokenHash: text("token_hash").notNull().unique(),
    /** How the user signed in: `password` or `api_key`. */
    method: text("method", { enum: ["password", "api_key"] }).notNull(),
    /** The key signed in with (`api_key`): revoking it ends the session; the session lapses when the key expires. */
    apiKeyId: text("api_key_id"),
    keyExpiresAt: integer("key_expires_at"),
    /** The browser, so a user can tell their sessions apart. */
    userAgent: text("user_agent"),
    lastUsedAt: integer("last_used_at").notNull(),
    revokedAt: integer("revoked_at"),
    createdAt: createdAt(),
  },
  (t) => [index("console_sessions_user_idx").on(t.userId), index("console_sessions_api_key_idx").on(t.apiKeyId)],
);
