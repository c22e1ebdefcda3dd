import { expect } from "vitest";
import { eq } from "drizzle-orm";
import { contacts, conversations } from "../../../src/db/schema";
import { uuidv7 } from "../../../src/lib/ids";
import { data, unique, type Actor } from "../../harness";
import type { Schemas } from "../../support/api";

export type ContactRecord = Schemas["Contact"];
export type ContactPage = Schemas["ContactPage"];

export async function createContact(owner: Actor, body: Record<string, unknown> = {}): Promise<ContactRecord> {
  const res = await owner.fetch("POST", "/contacts/", { name: unique("contact"), ...body });
  expect(res.status, await res.clone().text()).toBe(201);
  return res.json();
}

export const storedContact = async (organizationId: string, id: string) =>
  (await (await data(organizationId)).select().from(contacts).where(eq(contacts.id, id)))[0];
export const contactsOf = async (organizationId: string) =>
  (await data(organizationId)).select().from(contacts).where(eq(contacts.organizationId, organizationId));

/** There is no conversation route to lean on here: the row is written straight to the table. */
export async function seedConversation(owner: Actor, inboxId: string, contactId: string) {
  const id = uuidv7();
  await (await data(owner.organizationId))
    .insert(conversations)
    .values({ id, organizationId: owner.organizationId, inboxId, contactId });
  return id;
}
