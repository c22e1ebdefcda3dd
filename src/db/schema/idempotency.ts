import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { organizations } from "./organizations";
import { belongsTo } from "./columns";

/**
 * Requests sent with an `Idempotency-Key` (docs/decisions.md, "Resent messages"): one row per key and
 * the client that owns it (`owner`: `user:<id>` for API keys and sessions, `contact:<id>` for widget
 * visitors), holding a hash of the request and, once it has finished, its outcome, replayed to a
 * request that repeats the key within 24 hours.
 */
export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    organizationId: belongsTo("organization_id", () => organizations.id),
    owner: text("owner").notNull(),
    key: text("key").notNull(),
    /** SHA-256 of the method, path and canonical JSON body: the same key with another request is refused. */
    requestHash: text("request_hash").notNull(),
    /** Null while the first request is under way. */
    status: integer("status"),
    /** The outcome: a JSON body, or (streams) the reply's events, condensed. */
    response: text("response"),
    contentType: text("content_type"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.owner, t.key] }), index("idempotency_keys_created_idx").on(t.createdAt)],
);
