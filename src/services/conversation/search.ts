import { and, or, sql, type SQL } from "drizzle-orm";
import { conversations, messages } from "../../db/schema";
import { contains, likePattern } from "../../lib/sql";

/** At most this many words of a keyword are searched; the rest are ignored. */
export const MAX_KEYWORD_WORDS = 10;
/** The trigram tokenizer cannot match anything shorter; such words are matched with LIKE. */
const TRIGRAM = 3;

/** An FTS5 phrase: the word in double quotes, its own quotes doubled, so no query syntax applies. */
const phrase = (word: string) => `"${word.replace(/"/g, '""')}"`;

/**
 * One word of a conversation search: in its title, in any of its messages (private notes too: the
 * search is the team's, over the team's own text) or in its contact's name. Words of 3 or more
 * characters go through the trigram indexes (messages_fts, migration 0026; contacts_fts, migration
 * 0003), each one set of ids read once for the whole list; shorter ones fall back to LIKE.
 */
function wordCondition(organizationId: string, word: string): SQL {
  if ([...word].length < TRIGRAM) {
    return or(
      contains(conversations.title, word),
      sql`EXISTS (SELECT 1 FROM ${messages} WHERE ${messages.conversationId} = ${conversations.id}
        AND ${messages.content} LIKE ${likePattern(word)} ESCAPE '\\')`,
      sql`EXISTS (SELECT 1 FROM contacts c WHERE c.id = ${conversations.contactId}
        AND c.name LIKE ${likePattern(word)} ESCAPE '\\')`,
    )!;
  }
  const match = phrase(word);
  return or(
    contains(conversations.title, word),
    sql`${conversations.id} IN (SELECT m.conversation_id FROM messages m WHERE m.organization_id = ${organizationId}
      AND m.rowid IN (SELECT rowid FROM messages_fts WHERE messages_fts MATCH ${match}))`,
    sql`${conversations.contactId} IN
      (SELECT contact_id FROM contacts_fts WHERE contacts_fts MATCH ${`{name} : ${match}`})`,
  )!;
}

/** Every word of `keyword` (split on white space) matches the conversation somewhere; undefined when it has none. */
export function keywordCondition(organizationId: string, keyword: string): SQL | undefined {
  const words = keyword.split(/\s+/).filter(Boolean).slice(0, MAX_KEYWORD_WORDS);
  return words.length ? and(...words.map((w) => wordCondition(organizationId, w))) : undefined;
}
