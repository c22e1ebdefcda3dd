import { and, or, sql, type SQL } from "drizzle-orm";
import { conversations } from "../../db/schema";
import { contains, ftsWord, trigramSearchable } from "../../lib/sql";
import { searchWordTerms } from "../knowledge/retrieval/terms";
import { CONVERSATION_ID_TEXT } from "./search-terms";
import type { Bindings } from "../../env";
import { organizationPlacement, shardDb } from "../shards";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";

/** At most this many words of a keyword are searched; the rest are ignored. */
export const MAX_KEYWORD_WORDS = 10;
/** Above every character: `term < prefix || LAST` holds for every term that starts with `prefix`. */
const LAST = "\u{10FFFF}";

/**
 * The word in the conversation's title, or in its contact's name (the trigram index `contacts_fts`,
 * migration 0003).
 */
function titleOrContact(word: string): SQL[] {
  // A word the trigram index of contact names cannot find (lib/sql.ts `trigramSearchable`) by `contains`.
  const contact = !trigramSearchable(word)
    ? sql`EXISTS (SELECT 1 FROM contacts c WHERE c.id = ${conversations.contactId}
        AND ${contains(sql`c.name`, word)})`
    : sql`${conversations.contactId} IN
      (SELECT contact_id FROM contacts_fts WHERE contacts_fts MATCH ${`{name} : ${ftsWord(word)}`})`;
  return [contains(conversations.title, word), contact];
}

/** A term of the search: the start of a Latin word, or a CJK pair. */
type Term = { prefix: string } | { pair: string };

/** How many conversations a term finds in the shard at most, those that brought it last first (the ids are sent
 * to `DB` as one value). */
const MAX_SHARD_MATCHES = 10_000;

/** Compiles the shard's queries, which drizzle's D1 database would send one at a time. */
const dialect = new SQLiteSyncDialect();

/** A term as `conversation_terms` is searched for it, and as it starts in a pending row's JSON array of terms. */
function termSql(term: Term): { folded: SQL; pending: string } {
  return "prefix" in term
    ? { folded: sql`term >= ${term.prefix} AND term < ${term.prefix + LAST}`, pending: `"${term.prefix}` }
    : { folded: sql`term = ${term.pair}`, pending: `"${term.pair}"` };
}
const termKey = (term: Term) => ("prefix" in term ? `p${term.prefix}` : `c${term.pair}`);

/**
 * Each term's conversations in the organization's shard (services/shards), folded or pending there: a JSON array of
 * ids by term (see termKey), read in one batch. `part`: one of the organization's data parts
 * (services/shards/parts.ts), whose conversations' terms it holds, instead.
 */
async function shardMatches(
  env: Bindings,
  organizationId: string,
  terms: Term[],
  part?: D1Database,
): Promise<Map<string, string>> {
  if (!terms.length) return new Map();
  const d1 = part ?? shardDb(env, (await organizationPlacement(env, organizationId)).read);
  const organization = sql`unhex(replace(${organizationId}, '-', ''))`;
  const statements = terms.map((term) => {
    const { folded, pending } = termSql(term);
    const query = dialect.sqlToQuery(sql`SELECT json_group_array(id) AS ids FROM (
      SELECT id FROM (SELECT ${sql.raw(CONVERSATION_ID_TEXT)} AS id FROM conversation_terms
        WHERE organization_id = ${organization} AND ${folded} ORDER BY last_at DESC LIMIT ${MAX_SHARD_MATCHES})
      UNION SELECT conversation_id FROM conversation_terms_pending
        WHERE organization_id = ${organizationId} AND instr(terms, ${pending}) > 0)`);
    return d1.prepare(query.sql).bind(...query.params);
  });
  const results = await d1.batch<{ ids: string }>(statements);
  return new Map(terms.map((term, i) => [termKey(term), results[i].results[0]?.ids ?? "[]"]));
}

/**
 * The conversations of the organization whose messages brought every one of these terms: each Latin
 * word the start of a term, each CJK pair a term; one condition a term, met in the organization's shard (`found`,
 * see shardMatches), in `DB`'s terms from before the shards, or in `DB`'s pending terms not shipped to the shard yet
 * (`conversation_terms_pending`, a JSON array of terms a message, where `"` starts each term;
 * services/conversation/search-terms.ts).
 */
function termsCondition(organizationId: string, terms: Term[], found: Map<string, string>): SQL[] {
  const organization = sql`unhex(replace(${organizationId}, '-', ''))`;
  return terms.map((term) => {
    const { folded, pending } = termSql(term);
    return or(
      sql`${conversations.id} IN (SELECT value FROM json_each(${found.get(termKey(term)) ?? "[]"}))`,
      sql`${conversations.id} IN (SELECT ${sql.raw(CONVERSATION_ID_TEXT)} FROM conversation_terms
        WHERE organization_id = ${organization} AND ${folded})`,
      sql`${conversations.id} IN (SELECT conversation_id FROM conversation_terms_pending
        WHERE organization_id = ${organizationId} AND instr(terms, ${pending}) > 0)`,
    )!;
  });
}

/** A word's terms: each Latin word the start of a term, each CJK pair a term. */
const wordTerms = (terms: ReturnType<typeof searchWordTerms>): Term[] => [
  ...terms.prefixes.map((prefix) => ({ prefix })),
  ...terms.pairs.map((pair) => ({ pair })),
];

/**
 * One word of a conversation search: in its title, in its messages (private notes too: the search is
 * the team's, over the team's own text) or in its contact's name. In messages, through their terms
 * (docs/decisions.md, "Conversation search by terms"): a Latin word matches the start of a word, a
 * CJK one by its pairs of characters, and a word with several (`API密钥`, `e-mail`) needs them all.
 * A word of a single character (or only punctuation) has no term: it is looked for in the title and
 * the contact's name alone.
 */
function wordCondition(organizationId: string, word: string, terms: Term[], found: Map<string, string>): SQL {
  const inMessages = termsCondition(organizationId, terms, found);
  return or(...titleOrContact(word), ...(inMessages.length ? [and(...inMessages)] : []))!;
}

/**
 * Every word of `keyword` (split on white space) matches the conversation somewhere; undefined when it
 * has none. Stopwords are not terms: they are left out when other words remain ("where is my parcel"
 * is "parcel"), else looked for in the title and the contact's name alone. The terms are looked up in the
 * organization's shard first (one batch), the rest is a condition of the list's query on its data plane. For a list
 * over several data parts, each part's condition looks its terms up in that `part`.
 */
export async function keywordCondition(env: Bindings, organizationId: string, keyword: string, part?: D1Database) {
  const words = keyword
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, MAX_KEYWORD_WORDS)
    .map((word) => ({ word, terms: searchWordTerms(word) }));
  const meaningful = words
    .filter((w) => !w.terms.stopwords)
    .map(({ word, terms }) => ({ word, terms: wordTerms(terms) }));
  const unique = new Map(meaningful.flatMap((w) => w.terms).map((term) => [termKey(term), term]));
  const found = await shardMatches(env, organizationId, [...unique.values()], part);
  const conditions = meaningful.length
    ? meaningful.map(({ word, terms }) => wordCondition(organizationId, word, terms, found))
    : words.map(({ word }) => or(...titleOrContact(word))!);
  return conditions.length ? and(...conditions) : undefined;
}
