import { and, or, sql, type SQL } from "drizzle-orm";
import { conversations } from "../../db/schema";
import { contains, likePattern } from "../../lib/sql";
import { searchWordTerms } from "../knowledge/retrieval/terms";
import { CONVERSATION_ID_TEXT } from "./search-terms";

/** At most this many words of a keyword are searched; the rest are ignored. */
export const MAX_KEYWORD_WORDS = 10;
/** The trigram tokenizer of contact names cannot match anything shorter; such words are matched with LIKE. */
const TRIGRAM = 3;
/** Above every character: `term < prefix || LAST` holds for every term that starts with `prefix`. */
const LAST = "\u{10FFFF}";

/** An FTS5 phrase: the word in double quotes, its own quotes doubled, so no query syntax applies. */
const phrase = (word: string) => `"${word.replace(/"/g, '""')}"`;

/**
 * The word in the conversation's title, or in its contact's name (the trigram index `contacts_fts`,
 * migration 0003).
 */
function titleOrContact(word: string): SQL[] {
  const contact =
    [...word].length < TRIGRAM
      ? sql`EXISTS (SELECT 1 FROM contacts c WHERE c.id = ${conversations.contactId}
        AND c.name LIKE ${likePattern(word)} ESCAPE '\\')`
      : sql`${conversations.contactId} IN
      (SELECT contact_id FROM contacts_fts WHERE contacts_fts MATCH ${`{name} : ${phrase(word)}`})`;
  return [contains(conversations.title, word), contact];
}

/**
 * The conversations of the organization whose messages brought every one of these terms: each Latin
 * word the start of a term, each CJK pair a term; one condition a term, met in `conversation_terms` or
 * in the terms not folded into it yet (`conversation_terms_pending`, a JSON array of terms a message,
 * where `"` starts each term; services/conversation/search-terms.ts). One set of ids read once for the
 * whole list.
 */
function termsCondition(organizationId: string, prefixes: string[], pairs: string[]): SQL[] {
  const organization = sql`unhex(replace(${organizationId}, '-', ''))`;
  const term = (folded: SQL, pending: string) =>
    or(
      sql`${conversations.id} IN (SELECT ${sql.raw(CONVERSATION_ID_TEXT)} FROM conversation_terms
        WHERE organization_id = ${organization} AND ${folded})`,
      sql`${conversations.id} IN (SELECT conversation_id FROM conversation_terms_pending
        WHERE organization_id = ${organizationId} AND instr(terms, ${pending}) > 0)`,
    )!;
  return [
    ...prefixes.map((prefix) => term(sql`term >= ${prefix} AND term < ${prefix + LAST}`, `"${prefix}`)),
    ...pairs.map((pair) => term(sql`term = ${pair}`, `"${pair}"`)),
  ];
}

/**
 * One word of a conversation search: in its title, in its messages (private notes too: the search is
 * the team's, over the team's own text) or in its contact's name. In messages, through their terms
 * (docs/decisions.md, "Conversation search by terms"): a Latin word matches the start of a word, a
 * CJK one by its pairs of characters, and a word with several (`API密钥`, `e-mail`) needs them all.
 * A word of a single character (or only punctuation) has no term: it is looked for in the title and
 * the contact's name alone.
 */
function wordCondition(organizationId: string, word: string, terms: ReturnType<typeof searchWordTerms>): SQL {
  const inMessages = termsCondition(organizationId, terms.prefixes, terms.pairs);
  return or(...titleOrContact(word), ...(inMessages.length ? [and(...inMessages)] : []))!;
}

/**
 * Every word of `keyword` (split on white space) matches the conversation somewhere; undefined when it
 * has none. Stopwords are not terms: they are left out when other words remain ("where is my parcel"
 * is "parcel"), else looked for in the title and the contact's name alone.
 */
export function keywordCondition(organizationId: string, keyword: string): SQL | undefined {
  const words = keyword
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, MAX_KEYWORD_WORDS)
    .map((word) => ({ word, terms: searchWordTerms(word) }));
  const meaningful = words.filter((w) => !w.terms.stopwords);
  const conditions = meaningful.length
    ? meaningful.map(({ word, terms }) => wordCondition(organizationId, word, terms))
    : words.map(({ word }) => or(...titleOrContact(word))!);
  return conditions.length ? and(...conditions) : undefined;
}
