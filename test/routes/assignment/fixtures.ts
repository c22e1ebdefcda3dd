import { expect } from "vitest";
import { uuidv7 } from "../../../src/lib/ids";
import { groupMembers, groups } from "../../../src/db/schema";
import { db, seedMember, unique, waitFor, type Actor } from "../../harness";
import { createChatbot } from "../../fixtures/chatbots";
import { bodyOf } from "../../support/api";

export type Conversation = {
  id: string;
  status: string;
  progressStatus: string;
  assignee: { id: string; name: string } | null;
  team: { id: string; name: string } | null;
  waitingSince: string | null;
};
type Completion = { conversationId: string; content: string };

/** An assistant whose default inbox assigns as `assignment` says (null: left manual). */
export async function assistantWithInbox(owner: Actor, assignment: Record<string, unknown> | null) {
  const bot = await createChatbot(owner);
  const inboxId = bot.defaultInbox!.id;
  if (assignment) {
    const res = await owner.fetch("PATCH", `/inboxes/${inboxId}/`, { assignment });
    expect(res.status, await res.clone().text()).toBe(200);
  }
  const talk = async (content: string, conversation?: string) => {
    const res = await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
      message: { content },
      ...(conversation ? { conversation } : {}),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    return await bodyOf<"POST /chatbots/{chatbotId}/completions/">(res);
  };
  return { bot, inboxId, talk };
}

/** A conversation the assistant handed to a person (the visitor asked for one). */
export async function handedOff(talk: (content: string, conversation?: string) => Promise<Completion>) {
  const { conversationId } = await talk("hello");
  await talk("I need to talk to a person", conversationId);
  return conversationId;
}

export const getConversation = async (actor: Actor, id: string) =>
  await bodyOf<"GET /conversations/{id}/">(await actor.fetch("GET", `/conversations/${id}/`));

/** The conversation once automatic assignment (run after the handoff is stored) has had its turn: assigned, or `ms`
 * passed. */
export const settledAssignment = (actor: Actor, id: string, ms = 3000) =>
  waitFor(
    () => getConversation(actor, id),
    (c) => c.assignee !== null,
    ms,
  );

/** A team (group without permissions) of the owner's organization with these members. */
export async function seedTeam(owner: Actor, memberIds: string[]) {
  const id = uuidv7();
  await db()
    .insert(groups)
    .values({ id, organizationId: owner.organizationId, name: unique("team") });
  if (memberIds.length)
    await db()
      .insert(groupMembers)
      .values(memberIds.map((memberId) => ({ groupId: id, memberId })));
  return id;
}

/** A member who may manage conversations, with the availability they set themselves. */
export async function seedAgent(owner: Actor, availability: "online" | "busy" | "offline" = "offline") {
  const agent = await seedMember(owner, ["conversation.manage"]);
  if (availability !== "offline") await setAvailability(agent, availability);
  return agent;
}

export async function setAvailability(actor: Actor, availability: string) {
  const res = await actor.fetch("PUT", `/organizations/${actor.organizationId}/members/current/availability/`, {
    availability,
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json();
}
