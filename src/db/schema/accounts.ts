import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { bool, createdAt, id, updatedAt } from "./columns";

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
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: id(),
    userId: text("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
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
