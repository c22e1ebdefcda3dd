// Contacts over an organization's parts (docs/scale.md §5, "One organization over several shards", 3): every contact
// lives in the organization's own shard (its first part), which answers every read and list of contacts as before. A
// conversation in a later part gets a copy of its contact's row, written in the conversation's own batch, so the joins
// of the conversation lists, search, records and payloads stay SQL inside the part, and the part's foreign key from
// `conversations.contact_id` holds. A change of a contact is written to its copies; a delete asks every part.
import type { Bindings, Db } from "../../env";
import { sqlStatement } from "../../db/prepared";
import { getDataDb } from "../../db";
import { shardDb, type ShardName } from ".";
import { partOf } from "./parts";
import { planeState } from "./plane-router";

type RawContact = Record<string, unknown>;

/** The contact's row, every column, as the organization's own shard has it. */
async function homeRow(env: Bindings, shard: ShardName, organizationId: string, contactId: string) {
  const statement = "SELECT * FROM contacts WHERE id = ?1 AND organization_id = ?2";
  return sqlStatement(getDataDb(shardDb(env, shard)), statement)
    .bind(contactId, organizationId)
    .first<RawContact>();
}

/**
 * The statements copying a new conversation's contact into the conversation's part (none when the part is the
 * organization's own shard, or the conversation has no contact), for the batch that inserts the conversation: a
 * contact not found leaves the conversation's foreign key to refuse it, as it would in one part.
 */
export async function contactCopyWrites(
  env: Bindings,
  target: Db,
  organizationId: string,
  conversationId: string,
  contactId: string | null,
): Promise<D1PreparedStatement[]> {
  if (!contactId) return [];
  const state = await planeState(env, organizationId);
  if (state.plane !== "shard" || partOf(state.shard, state.parts, conversationId) === state.shard) return [];
  const row = await homeRow(env, state.shard, organizationId, contactId);
  if (!row) return [];
  const columns = Object.keys(row);
  const values = columns.map((_, i) => `?${i + 1}`).join(", ");
  return [
    sqlStatement(target, `INSERT OR IGNORE INTO contacts (${columns.join(", ")}) VALUES (${values})`).bind(
      ...columns.map((c) => row[c]),
    ),
  ];
}

/** The other parts of an organization in a shard (none for most organizations). */
async function otherParts(env: Bindings, organizationId: string) {
  const state = await planeState(env, organizationId);
  if (state.plane !== "shard") return { home: state.shard, others: [] };
  const others = [...new Set(state.parts.map((p) => p.shard))].filter((s) => s !== state.shard);
  return { home: state.shard, others: others.map((s) => getDataDb(shardDb(env, s))) };
}

/** Writes a contact's row, as its own shard has it now, over its copies in the organization's other parts. */
export async function refreshContactCopies(env: Bindings, organizationId: string, contactId: string): Promise<void> {
  const { home, others } = await otherParts(env, organizationId);
  if (!others.length) return;
  const row = await homeRow(env, home, organizationId, contactId);
  if (!row) return;
  const columns = Object.keys(row).filter((c) => c !== "id");
  const set = `(${columns.join(", ")}) = (${columns.map((_, i) => `?${i + 2}`).join(", ")})`;
  await Promise.all(
    others.map((db) =>
      sqlStatement(db, `UPDATE contacts SET ${set} WHERE id = ?1`)
        .bind(contactId, ...columns.map((c) => row[c]))
        .run(),
    ),
  );
}

/**
 * Deletes a contact's copies in the organization's other parts, each only where no conversation of it is: false when
 * a part still holds one (the contact itself is then left as it is; a copy deleted meanwhile is written again with the
 * next conversation).
 */
export async function deleteContactCopies(env: Bindings, organizationId: string, contactId: string): Promise<boolean> {
  const { others } = await otherParts(env, organizationId);
  const kept = await Promise.all(
    others.map(async (db) => {
      const statement =
        "DELETE FROM contacts WHERE id = ?1 AND NOT EXISTS (SELECT 1 FROM conversations WHERE contact_id = ?1)";
      await sqlStatement(db, statement).bind(contactId).run();
      const left = await sqlStatement(db, "SELECT 1 FROM contacts WHERE id = ?1").bind(contactId).first();
      return left !== null;
    }),
  );
  return !kept.includes(true);
}
