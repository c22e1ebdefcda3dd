// An organization's canned responses: replies an operator inserts by typing `/shortCode` in the
// console's reply box. Variables (`{{contact.name}}`, `{{agent.name}}`) are kept as written here and
// filled by the console as it inserts one: the content is the operator's template.
import { and, asc, count, eq, or } from "drizzle-orm";
import type { Db } from "../env";
import { cannedResponses } from "../db/schema";
import { conflict, isUniqueViolation, notFound } from "../lib/errors";
import { uuidv7 } from "../lib/ids";
import { type Page, type PageWindow, paginate } from "../db/paginate";
import { contains } from "../lib/sql";
import type { CannedResponseInput, CannedResponseCreateInput } from "./records/canned-responses";

type Row = typeof cannedResponses.$inferSelect;

const taken = (shortCode: string) =>
  conflict(`A canned response with the short code "${shortCode}" already exists in the organization.`);

/** Runs a write whose unique (organization, short code) index may refuse it: a 409 naming the code. */
async function uniqueCode<T>(shortCode: string | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (shortCode !== undefined && isUniqueViolation(err)) throw taken(shortCode);
    throw err;
  }
}

/** A page of the organization's canned responses by short code; `search` matches the short code or the content. */
export async function listCannedResponses(
  db: Db,
  organizationId: string,
  window: PageWindow,
  search?: string,
): Promise<Page<Row>> {
  const where = and(
    eq(cannedResponses.organizationId, organizationId),
    search ? or(contains(cannedResponses.shortCode, search), contains(cannedResponses.content, search)) : undefined,
  );
  return paginate(window, db.select({ n: count() }).from(cannedResponses).where(where), ({ limit, offset }) =>
    db.select().from(cannedResponses).where(where).orderBy(asc(cannedResponses.shortCode)).limit(limit).offset(offset),
  );
}

export async function getCannedResponse(db: Db, organizationId: string, id: string): Promise<Row> {
  const [row] = await db
    .select()
    .from(cannedResponses)
    .where(and(eq(cannedResponses.id, id), eq(cannedResponses.organizationId, organizationId)));
  if (!row) throw notFound("Canned response not found.");
  return row;
}

export async function createCannedResponse(
  db: Db,
  organizationId: string,
  userId: string | null,
  input: CannedResponseCreateInput,
): Promise<Row> {
  const [row] = await uniqueCode(input.shortCode, () =>
    db
      .insert(cannedResponses)
      .values({ id: uuidv7(), organizationId, createdById: userId, shortCode: input.shortCode, content: input.content })
      .returning(),
  );
  return row;
}

export async function updateCannedResponse(
  db: Db,
  organizationId: string,
  id: string,
  changes: CannedResponseInput,
): Promise<Row> {
  await getCannedResponse(db, organizationId, id);
  const [row] = await uniqueCode(changes.shortCode, () =>
    db
      .update(cannedResponses)
      .set({ ...changes, updatedAt: Date.now() })
      .where(and(eq(cannedResponses.id, id), eq(cannedResponses.organizationId, organizationId)))
      .returning(),
  );
  if (!row) throw notFound("Canned response not found.");
  return row;
}

export async function deleteCannedResponse(db: Db, organizationId: string, id: string): Promise<void> {
  const [row] = await db
    .delete(cannedResponses)
    .where(and(eq(cannedResponses.id, id), eq(cannedResponses.organizationId, organizationId)))
    .returning({ id: cannedResponses.id });
  if (!row) throw notFound("Canned response not found.");
}
