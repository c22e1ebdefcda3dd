import { eq } from "drizzle-orm";
import { chatbotGroups } from "../../../../src/db/schema";
import { db, type Actor } from "../../../harness";
import { addLinks, linksPath } from "../helpers";

export const groupChatbotsPath = (organizationId: string, groupId: string, rest = "") =>
  linksPath("group-chatbots", organizationId, groupId, rest);

export const addChatbots = (actor: Actor, groupId: string, chatbotIds: string[]) =>
  addLinks(actor, "group-chatbots", groupId, chatbotIds);

export const linksOfGroup = (groupId: string) =>
  db().select().from(chatbotGroups).where(eq(chatbotGroups.groupId, groupId));
