// The "two-parts" project (vitest.config.ts): every organization made while it runs gets a second part of its data
// plane from the moment its directory row is written (services/shards/parts.ts; docs/scale.md §5, "One organization
// over several shards"), in the other shard. So the conversations the tests create land in the second part, while
// what the organization owns as a whole (contacts, channel chats and events, uploads) stays in the first: the same
// tests, through the same API, prove that every read and write finds a conversation's part.
import { env } from "cloudflare:workers";

await env.DB.prepare(
  "CREATE TRIGGER IF NOT EXISTS test_second_part AFTER INSERT ON organization_shards WHEN NEW.data_plane = 'shard' " +
    "BEGIN INSERT OR IGNORE INTO organization_parts (organization_id, from_ms, shard) VALUES (NEW.organization_id, " +
    "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), " +
    "CASE NEW.shard WHEN 'CONVERSATIONS_1' THEN 'CONVERSATIONS_2' ELSE 'CONVERSATIONS_1' END); END",
).run();
