import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { chatbotGroups } from "../../../../src/db/schema";
import { db, type Actor } from "../../../harness";
import { bodyOf } from "../../../support/api";

export interface GroupChatbotBody {
  id: string;
  group: string;
  chatbot: { id: string; name: string };
  createdAt: string;
}

export const groupChatbotsPath = (organizationId: string, groupId: string, rest = "") =>
  `/organizations/${organizationId}/groups/${groupId}/group-chatbots/${rest}`;

export async function addChatbots(actor: Actor, groupId: string, chatbotIds: string[]): Promise<GroupChatbotBody[]> {
  const res = await actor.fetch("POST", groupChatbotsPath(actor.organizationId, groupId, "bulk-create/"), {
    chatbots: chatbotIds,
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return await bodyOf<"POST /organizations/{organizationPk}/groups/{groupPk}/group-chatbots/bulk-create/">(res);
}

export const linksOfGroup = (groupId: string) =>
  db().select().from(chatbotGroups).where(eq(chatbotGroups.groupId, groupId));
