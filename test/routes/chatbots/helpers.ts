import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { chatbotGroups, chatbots, inboxes, members } from "../../../src/db/schema";
import { db } from "../../harness";
import type { ChatbotRecord } from "../../fixtures/chatbots";

export type Page<T = ChatbotRecord> = { count: number; next: string | null; previous: string | null; results: T[] };

export async function page<T = ChatbotRecord>(res: Response): Promise<Page<T>> {
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as Page<T>;
}

export async function ok<T = ChatbotRecord>(res: Response, status = 200): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}

/** Assistants and inboxes created by a user, read straight from the database. */
export const storedChatbots = (userId: string) => db().select().from(chatbots).where(eq(chatbots.createdById, userId));
export const storedChatbot = async (id: string) => (await db().select().from(chatbots).where(eq(chatbots.id, id)))[0];
export const inboxesOf = (organizationId: string) =>
  db().select().from(inboxes).where(eq(inboxes.organizationId, organizationId));
export const linksOf = (chatbotId: string) =>
  db().select().from(chatbotGroups).where(eq(chatbotGroups.chatbotId, chatbotId));

/** The organization a seeded member owns themselves (seedMember gives every member one). */
export async function ownOrganizationOf(userId: string): Promise<string> {
  const rows = await db().select().from(members).where(eq(members.userId, userId));
  return rows.find((m) => m.isOwner)!.organizationId;
}
