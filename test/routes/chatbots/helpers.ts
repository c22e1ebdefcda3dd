import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { chatbotGroups, chatbots, inboxes, members } from "../../../src/db/schema";
import { decryptSecret } from "../../../src/lib/crypto";
import { db } from "../../harness";
import { bodyOf, type Operation, pageOf } from "../../support/api";

/** A list's page (operation `K`, the assistants' list unless given) once its status is 200. */
export async function page<K extends Operation = "GET /chatbots/">(res: Response) {
  expect(res.status, await res.clone().text()).toBe(200);
  return pageOf<K>(res);
}

/** The body of an answer of operation `K` (an assistant unless given) once its status is `status`. */
export async function ok<K extends Operation = "GET /chatbots/{id}/">(res: Response, status = 200) {
  expect(res.status, await res.clone().text()).toBe(status);
  return bodyOf<K>(res);
}

/** Assistants and inboxes created by a user, read straight from the database. */
export const storedChatbots = (userId: string) => db().select().from(chatbots).where(eq(chatbots.createdById, userId));
export const storedChatbot = async (id: string) => (await db().select().from(chatbots).where(eq(chatbots.id, id)))[0];
/** The assistant's connection string as stored: only sealed, opened with the deployment's key. */
export async function storedDatabaseUrl(id: string) {
  const row = await storedChatbot(id);
  expect(row.databaseUrl).toBeNull();
  return row.databaseUrlSealed && (await decryptSecret(row.databaseUrlSealed, env.ENCRYPTION_KEY));
}
export const inboxesOf = (organizationId: string) =>
  db().select().from(inboxes).where(eq(inboxes.organizationId, organizationId));
export const linksOf = (chatbotId: string) =>
  db().select().from(chatbotGroups).where(eq(chatbotGroups.chatbotId, chatbotId));

/** The organization a seeded member owns themselves (seedMember gives every member one). */
export async function ownOrganizationOf(userId: string): Promise<string> {
  const rows = await db().select().from(members).where(eq(members.userId, userId));
  return rows.find((m) => m.isOwner)!.organizationId;
}
