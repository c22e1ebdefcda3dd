// The schema of an organization shard (the `CONVERSATIONS_n` D1 bindings, services/shards): what an
// organization writes there, with its own migrations (migrations-shards/, drizzle.shards.config.ts;
// docs/decisions.md, "Organization shards"). The tables keep the names and columns they have in `DB`.
export { conversationTerms, conversationTermsCursors, conversationTermsPending } from "../schema/conversations";
