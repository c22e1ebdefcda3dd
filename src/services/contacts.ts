import type { z } from "@hono/zod-openapi";
import { and, asc, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../env";
import { contactInboxes, contacts, contactTags, inboxes, tags } from "../db/schema";
import { type PageWindow, newestFirstPage } from "../db/paginate";
import { encryptSecret } from "../lib/crypto";
import { fieldError } from "../lib/errors";
import { isUuid, uuidv7 } from "../lib/ids";
import { unicodeForms } from "../lib/text";
import { chunk, contains, ftsWord, inList, trigramSearchable } from "../lib/sql";
import { type ContactCreate, type ContactUpdate, contactRecord } from "./records/contacts";
import { type ContactFilters, MAX_SEARCH_TERMS } from "./contact-list-query";

// ---------------------------------------------------------------------------------------------
// Reading contacts.

export type ContactRow = typeof contacts.$inferSelect;
export type TagRow = typeof tags.$inferSelect;
export interface ContactView {
  contact: ContactRow;
  /** Oldest inbox first. */
  inboxes: { id: string; name: string }[];
  /** By name. */
  tags: TagRow[];
}

function groupBy<T, V>(rows: T[], key: (row: T) => string, value: (row: T) => V) {
  const out = new Map<string, V[]>();
  for (const row of rows) out.set(key(row), [...(out.get(key(row)) ?? []), value(row)]);
  return out;
}

/**
 * Rows of one organization with their inboxes and tags: the links and tags first (its data plane, `data`), then the
 * names of the inboxes they point at by id (the control plane, `db`), as the inboxes are configuration kept apart
 * from the contacts (docs/scale.md §5 step 4).
 */
export async function contactViews(
  db: Db,
  data: Db,
  organizationId: string,
  rows: ContactRow[],
): Promise<ContactView[]> {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const [links, tagLinks] = await Promise.all([
    data
      .select({ contactId: contactInboxes.contactId, inboxId: contactInboxes.inboxId })
      .from(contactInboxes)
      .where(inList(contactInboxes.contactId, ids)),
    data
      .select({ contactId: contactTags.contactId, tag: tags })
      .from(contactTags)
      .innerJoin(tags, eq(tags.id, contactTags.tagId))
      .where(and(eq(tags.organizationId, organizationId), inList(contactTags.contactId, ids)))
      .orderBy(asc(tags.name)),
  ]);
  const named = links.length
    ? await db
        .select({ id: inboxes.id, name: inboxes.name })
        .from(inboxes)
        .where(
          and(
            eq(inboxes.organizationId, organizationId),
            inList(inboxes.id, [...new Set(links.map((l) => l.inboxId))]),
          ),
        )
        .orderBy(asc(inboxes.createdAt), asc(inboxes.id))
    : [];
  // Each contact's inboxes in the inboxes' order: oldest first.
  const contactsOf = groupBy(
    links,
    (l) => l.inboxId,
    (l) => l.contactId,
  );
  const inboxesOf = groupBy(
    named.flatMap((inbox) => (contactsOf.get(inbox.id) ?? []).map((contactId) => ({ contactId, inbox }))),
    (r) => r.contactId,
    (r) => r.inbox,
  );
  const tagsOf = groupBy(
    tagLinks,
    (r) => r.contactId,
    (r) => r.tag,
  );
  return rows.map((contact) => ({
    contact,
    inboxes: inboxesOf.get(contact.id) ?? [],
    tags: tagsOf.get(contact.id) ?? [],
  }));
}

/** One contact of the organization with its inboxes and tags (see contactViews), or null. */
export async function getContact(db: Db, data: Db, organizationId: string, id: string): Promise<ContactView | null> {
  const row = await findContact(data, organizationId, id);
  return row ? (await contactViews(db, data, organizationId, [row]))[0] : null;
}

/** The organization's contact row (`data`: its data plane), or undefined (a malformed id too). */
export async function findContact(data: Db, organizationId: string, id: string): Promise<ContactRow | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await data
    .select()
    .from(contacts)
    .where(and(eq(contacts.id, id), eq(contacts.organizationId, organizationId)));
  return row;
}

/** Leaf values of the metadata, as the full-text index sees them (migration 0003). */
const metadataContains = (term: string) =>
  sql`EXISTS (SELECT 1 FROM json_tree(CASE WHEN json_valid(${contacts.metadata}) THEN ${contacts.metadata} END) AS m
    WHERE m.type NOT IN ('object', 'array', 'null')
    AND ${contains(sql`CASE WHEN m.type IN ('true', 'false') THEN m.type ELSE CAST(m.value AS TEXT) END`, term)})`;

function searchCondition(search: string): SQL | undefined {
  const words = search.split(/\s+/).filter(Boolean).slice(0, MAX_SEARCH_TERMS);
  // A word the trigram index cannot find (shorter than 3 characters in one of its Unicode forms) by `contains`.
  const long = words.filter(trigramSearchable);
  const parts: (SQL | undefined)[] = words
    .filter((w) => !trigramSearchable(w))
    .map((w) =>
      or(
        contains(contacts.name, w),
        contains(contacts.email, w),
        contains(contacts.phoneNumber, w),
        contains(contacts.sourceId, w),
        metadataContains(w),
      ),
    );
  if (long.length) {
    parts.push(
      sql`${contacts.id} IN
        (SELECT contact_id FROM contacts_fts WHERE contacts_fts MATCH ${long.map(ftsWord).join(" ")})`,
    );
  }
  return and(...parts);
}

/**
 * The organization's inboxes the filters name, by id and by channel type: read first, in one query, as the inboxes
 * are configuration kept apart from the contacts and their links (docs/scale.md §5 step 4).
 */
async function filteredInboxes(db: Db, organizationId: string, f: ContactFilters) {
  if (!f.inboxes && !f.channels) return {};
  const found = await db
    .select({ id: inboxes.id, channelType: inboxes.channelType })
    .from(inboxes)
    .where(
      and(
        eq(inboxes.organizationId, organizationId),
        or(f.inboxes && inList(inboxes.id, f.inboxes), f.channels && inList(inboxes.channelType, f.channels)),
      ),
    );
  const idsWhere = (keep: (inbox: (typeof found)[number]) => boolean) => found.filter(keep).map((i) => i.id);
  return {
    byId: f.inboxes && idsWhere((i) => f.inboxes!.includes(i.id)),
    byChannel: f.channels && idsWhere((i) => f.channels!.includes(i.channelType)),
  };
}

/** The list's condition on `data` (the organization's data plane), the inboxes the filters name read first on `db`. */
export async function contactConditions(db: Db, data: Db, organizationId: string, f: ContactFilters): Promise<SQL> {
  const { byId, byChannel } = await filteredInboxes(db, organizationId, f);
  const linkedTo = (inboxIds: string[]) =>
    inArray(
      contacts.id,
      data
        .select({ id: contactInboxes.contactId })
        .from(contactInboxes)
        .where(inList(contactInboxes.inboxId, inboxIds)),
    );
  return and(
    eq(contacts.organizationId, organizationId),
    byId ? linkedTo(byId) : undefined,
    byChannel ? linkedTo(byChannel) : undefined,
    f.tags
      ? inArray(
          contacts.id,
          data
            .select({ id: contactTags.contactId })
            .from(contactTags)
            .innerJoin(tags, eq(tags.id, contactTags.tagId))
            .where(
              and(
                eq(tags.organizationId, organizationId),
                // A name in either Unicode form: tags stored before names were kept in NFC may be decomposed.
                or(inList(tags.name, f.tags.flatMap(unicodeForms)), inList(tags.id, f.tags)),
              ),
            ),
        )
      : undefined,
    f.query ? or(contains(contacts.name, f.query), contains(contacts.sourceId, f.query)) : undefined,
    f.search ? searchCondition(f.search) : undefined,
  )!;
}

/** A page of the organization's contacts matching the filters, newest first (see contactViews for `db` and `data`). */
export async function listContacts(
  db: Db,
  data: Db,
  organizationId: string,
  filters: ContactFilters,
  window: PageWindow,
) {
  const where = await contactConditions(db, data, organizationId, filters);
  const page = await newestFirstPage(data, contacts, where, window);
  const views = await contactViews(db, data, organizationId, page.items);
  return { count: page.count, items: views.map(contactRecord) };
}

// ---------------------------------------------------------------------------------------------
// Writing contacts.

type Json = Record<string, unknown>;
/**
 * A contact write as the services receive it: the update body once parsed (transforms applied, so an empty e-mail is
 * already null). Every field is optional; creating also needs `name` (ContactCreateInput).
 */
export type ContactInput = z.output<typeof ContactUpdate>;
export type ContactCreateInput = z.output<typeof ContactCreate>;

/** The links a contact write asks for: `inboxes` or the deprecated single `inbox`. */
export type InboxesInput = Pick<ContactInput, "inboxes" | "inbox">;

/** `inboxes` wins; the old single `inbox` means a list of one (null: none); neither: unchanged. */
export function inboxChange(body: InboxesInput): { ids: string[]; field: string } | undefined {
  if (body.inboxes) return { ids: [...new Set(body.inboxes.map((i) => i.id))], field: "inboxes" };
  if (body.inbox !== undefined) return { ids: body.inbox ? [body.inbox.id] : [], field: "inbox" };
  return undefined;
}

/** Distinct tag names in the order given. */
export const tagNames = (body: { tags?: string[] }) => (body.tags ? [...new Set(body.tags)] : undefined);

/**
 * Keys holding connector token bodies or other secrets (compared lower-case, without `_`, `-` and `.`): tokens,
 * secrets, passwords and pass phrases, private, access and API keys, JWTs, cookies, sessions, signatures.
 */
const TOKEN_KEY = new RegExp(
  "(token|secret|password|passwd|pwd|passphrase|privatekey|accesskey|apikey|secretkey|signingkey|jwt|cookies?|" +
    "session|signature|credentials?)$|^(key|authorization|auth|bearer)$",
);

/** Connector grants are kept without their token bodies, at any depth. */
export function withoutTokens(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutTokens);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !TOKEN_KEY.test(key.toLowerCase().replace(/[_.-]/g, "")))
      .map(([key, v]) => [key, withoutTokens(v)]),
  );
}

/** Credentials are sealed with ENCRYPTION_KEY; an empty list is stored as none. */
const seal = async (list: Json[] | null | undefined, secret: string | undefined) =>
  list === undefined ? undefined : list?.length ? encryptSecret(JSON.stringify(list), secret) : null;

/** Column values for the fields present in `input` (absent fields stay undefined: unchanged). */
export async function contactColumns(input: ContactInput, secret: string | undefined) {
  const { contactConnectors: connectors } = input;
  return {
    name: input.name,
    avatar: input.avatar,
    phoneNumber: input.phoneNumber,
    email: input.email,
    sourceId: input.sourceId,
    queryMetadata: input.queryMetadata as Json | null | undefined,
    metadata: input.metadata,
    preChatFieldIndex: input.preChatFieldIndex,
    mcpCredentialsSealed: await seal(input.mcpCredentials, secret),
    apiCredentialsSealed: await seal(input.apiCredentials, secret),
    contactConnectors:
      connectors === undefined ? undefined : (connectors?.map((c) => withoutTokens(c) as Json) ?? null),
  };
}

/** Every inbox must be one of the organization's (400 naming `field` otherwise). */
export async function requireInboxesOf(db: Db, organizationId: string, ids: string[], field: string): Promise<void> {
  if (!ids.length) return;
  const found = await db
    .select({ id: inboxes.id })
    .from(inboxes)
    .where(and(eq(inboxes.organizationId, organizationId), inList(inboxes.id, ids)));
  const missing = ids.filter((id) => !found.some((f) => f.id === id));
  if (missing.length) throw fieldError(field, `No such inbox in this organization: ${missing.join(", ")}.`);
}

type Statement = BatchItem<"sqlite">;

/**
 * Statements linking a contact to inboxes, which `requireInboxesOf` has found to be the organization's: inserted as
 * values in its data plane (`data`), the inboxes being configuration kept apart from the links (docs/scale.md §5
 * step 4).
 */
export function inboxLinkStatements(data: Db, contactId: string, inboxIds: string[]): Statement[] {
  // Two parameters a row: 45 rows stay under D1's 100.
  return chunk(inboxIds, 45).map((part) =>
    data.insert(contactInboxes).values(part.map((inboxId) => ({ contactId, inboxId }))),
  );
}

/**
 * The names to tag with, each as a tag of the organization already holds it: tags stored before names were kept in
 * NFC may be decomposed, and one name must stay one tag whatever its form (the composed one wins if both are
 * stored). A name no tag holds yet is given composed, the form a new tag is stored in.
 */
async function storedTagNames(data: Db, organizationId: string, names: string[]): Promise<string[]> {
  const composed = [...new Set(names.map((name) => name.normalize("NFC")))];
  const found = await data
    .select({ name: tags.name })
    .from(tags)
    .where(and(eq(tags.organizationId, organizationId), inList(tags.name, composed.flatMap(unicodeForms))));
  const stored = new Map<string, string>();
  for (const { name } of found) {
    const key = name.normalize("NFC");
    if (!stored.has(key) || name === key) stored.set(key, name);
  }
  return composed.map((name) => stored.get(name) ?? name);
}

/**
 * Statements tagging a contact by tag names: missing tags are created in the organization
 * (existing ones kept, so concurrent writers cannot collide), then linked by name. Tags are only ever created
 * composed and never deleted apart from their organization, so the forms read first still hold at the batch.
 */
export async function tagStatements(
  data: Db,
  organizationId: string,
  contactId: string,
  names: string[],
): Promise<Statement[]> {
  if (!names.length) return [];
  const stored = await storedTagNames(data, organizationId, names);
  const now = Date.now();
  return [
    // Five parameters a row: 15 rows stay under D1's 100.
    ...chunk(stored, 15).map((part) =>
      data
        .insert(tags)
        .values(part.map((name) => ({ id: uuidv7(), organizationId, name, createdAt: now, updatedAt: now })))
        .onConflictDoNothing(),
    ),
    data.insert(contactTags).select(
      data
        .select({ contactId: sql<string>`${contactId}`.as("contact_id"), tagId: tags.id })
        .from(tags)
        .where(and(eq(tags.organizationId, organizationId), inList(tags.name, stored))),
    ),
  ];
}

/** 400 for an id that names no contact of the caller's organization. */
export const notAContact = (field: string) => fieldError(field, "Not a contact of your organization.");

/** A contact named in a body must be of the caller's organization (`data`: its data plane), else 400 on that field. */
export async function requireContact(data: Db, organizationId: string, id: string, field: string): Promise<ContactRow> {
  const row = await findContact(data, organizationId, id);
  if (!row) throw notAContact(field);
  return row;
}
