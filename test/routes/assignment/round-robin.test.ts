import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { env } from "cloudflare:workers";
import { conversations, members } from "../../../src/db/schema";
import { conversationObject } from "../../../src/services/conversations";
import { autoAssign } from "../../../src/services/assignment/round-robin";
import { setAvailability as comeBack } from "../../../src/services/assignment/availability";
import { removeMember } from "../../../src/services/members";
import type { Db } from "../../../src/env";
import { conversationData, db, expectError, parts, seedMember, seedOwner, waitFor, type Actor } from "../../harness";
import { d1BatchingAfter, whileBatching } from "../../support/races";
import { purgedThrough } from "../../support/purges";
import { createGroup } from "../groups/helpers";
import { client as d1 } from "../../../src/db/prepared";
import { liveEvents } from "../../support/sse";
import {
  assistantWithInbox,
  getConversation,
  handedOff,
  seedAgent,
  seedTeam,
  setAvailability,
  settledAssignment,
} from "./fixtures";

type Agent = Awaited<ReturnType<typeof seedAgent>>;
const ROUND_ROBIN = { mode: "round_robin", teamId: null, capacity: 5 };
/** `autoAssign` as the service calls it: on the conversation's part, the agent's load counted in every part. */
const assign = async (organizationId: string, conversationId: string, now?: number) =>
  autoAssign(
    db(),
    await conversationData(organizationId, conversationId),
    conversationId,
    now,
    [],
    await parts(organizationId),
  );
const memberRow = async (memberId: string) => (await db().select().from(members).where(eq(members.id, memberId)))[0]!;

/**
 * An owner's one online agent and a round-robin inbox (`talk`, assistantWithInbox's) giving each agent `capacity`
 * conversations at most: a first handed-off conversation, `served`, assigned to the agent.
 */
async function agentServing(capacity = ROUND_ROBIN.capacity) {
  const owner = await seedOwner();
  const agent = await seedAgent(owner, "online");
  const { talk } = await assistantWithInbox(owner, { ...ROUND_ROBIN, capacity });
  const served = await handedOff(talk);
  expect((await settledAssignment(owner, served)).assignee?.id).toBe(agent.userId);
  return { owner, agent, talk, served };
}
/** agentServing with the agent's one place taken. */
const agentAtCapacity = () => agentServing(1);
describe("automatic (round-robin) assignment", () => {
  it(
    "a handoff goes to the online agent (offline and busy ones skipped), stays queued, and is told with reason " +
      "auto_assignment",
    async () => {
      const owner = await seedOwner();
      const offline = await seedAgent(owner, "offline");
      const busy = await seedAgent(owner, "busy");
      const online = await seedAgent(owner, "online");
      const { talk } = await assistantWithInbox(owner, ROUND_ROBIN);
      const stream = await owner.fetch("GET", `/organizations/${owner.organizationId}/conversation-events/`);
      const events = liveEvents(stream);
      await events.next((e) => e.event === "ready");

      const id = await handedOff(talk);
      const assigned = await settledAssignment(owner, id);
      expect(assigned).toMatchObject({
        status: "queued",
        progressStatus: "waiting_for_human",
        assignee: { id: online.userId },
      });
      expect(assigned.waitingSince).not.toBeNull();
      const event = await events.next((e) => e.event === "conversation.updated" && e.data.reason === "auto_assignment");
      expect(event.data).toMatchObject({
        changes: { assignee: [null, online.userId] },
        conversation: { id, assignee: { id: online.userId } },
      });
      await events.close();
      expect((await memberRow(online.memberId)).lastAssignedAt).toBeGreaterThan(0);
      for (const skipped of [offline, busy]) expect((await memberRow(skipped.memberId)).lastAssignedAt).toBeNull();
    },
  );

  it("the agent assigned longest ago goes first; then the other", async () => {
    const owner = await seedOwner();
    const a = await seedAgent(owner, "online");
    const b = await seedAgent(owner, "online");
    await db().update(members).set({ lastAssignedAt: 2_000 }).where(eq(members.id, a.memberId));
    await db().update(members).set({ lastAssignedAt: 1_000 }).where(eq(members.id, b.memberId));
    const { talk } = await assistantWithInbox(owner, ROUND_ROBIN);
    const first = await settledAssignment(owner, await handedOff(talk));
    expect(first.assignee?.id).toBe(b.userId);
    const second = await settledAssignment(owner, await handedOff(talk));
    expect(second.assignee?.id).toBe(a.userId);
  });

  it(
    "capacity (the member's own, else the inbox's) is respected: beyond it the conversation stays unassigned " +
      "and queued",
    async () => {
      const { owner, agent, talk } = await agentAtCapacity();
      const second = await handedOff(talk);
      // Nothing more will happen: the effect has run once autoAssign itself finds nothing to do.
      expect(await assign(owner.organizationId, second)).toBeNull();
      expect(await getConversation(owner, second)).toMatchObject({ assignee: null, status: "queued" });

      const res = await owner.fetch("PATCH", `/organizations/${owner.organizationId}/members/${agent.memberId}/`, {
        capacity: 2,
      });
      expect(res.status, await res.clone().text()).toBe(200);
      expect((await settledAssignment(owner, await handedOff(talk))).assignee?.id).toBe(agent.userId);
    },
  );

  it("two handoffs at once never exceed capacity (a conditional write); the clock is the caller's", async () => {
    const owner = await seedOwner();
    const agent = await seedAgent(owner, "offline");
    const { talk } = await assistantWithInbox(owner, { ...ROUND_ROBIN, capacity: 1 });
    const [x, y] = [await handedOff(talk), await handedOff(talk)];
    await waitFor(
      () => getConversation(owner, y),
      (c) => c.status === "queued",
    );
    // Online without the API (which would assign at once): both then race for the one place.
    await db().update(members).set({ availability: "online" }).where(eq(members.id, agent.memberId));
    const results = await Promise.all([
      assign(owner.organizationId, x, 42_000),
      assign(owner.organizationId, y, 42_000),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
    const assigned = [await getConversation(owner, x), await getConversation(owner, y)].filter((c) => c.assignee);
    expect(assigned).toHaveLength(1);
    expect((await memberRow(agent.memberId)).lastAssignedAt).toBe(42_000);
  });

  it("coming online assigns the oldest waiting conversations of the agent's inboxes, up to capacity", async () => {
    const owner = await seedOwner();
    const agent = await seedAgent(owner, "offline");
    const { talk } = await assistantWithInbox(owner, { ...ROUND_ROBIN, capacity: 2 });
    const ids = [await handedOff(talk), await handedOff(talk), await handedOff(talk)];
    for (const id of ids) expect((await getConversation(owner, id)).assignee).toBeNull();
    expect(await setAvailability(agent, "online")).toEqual({ availability: "online" });
    const after = await Promise.all(ids.map((id) => getConversation(owner, id)));
    expect(after.map((c) => c.assignee?.id ?? null)).toEqual([agent.userId, agent.userId, null]);
  });

  it("a team's inbox goes to its online members only; a manual inbox is never assigned automatically", async () => {
    const owner = await seedOwner();
    const outsider = await seedAgent(owner, "online");
    const member = await seedAgent(owner, "online");
    const team = await seedTeam(owner, [member.memberId]);
    const { talk } = await assistantWithInbox(owner, { ...ROUND_ROBIN, teamId: team });
    expect(await settledAssignment(owner, await handedOff(talk))).toMatchObject({
      assignee: { id: member.userId },
      team: { id: team },
    });
    expect(outsider.userId).not.toBe(member.userId);

    const manual = await assistantWithInbox(owner, null);
    const id = await handedOff(manual.talk);
    expect(await assign(owner.organizationId, id)).toBeNull();
    expect((await getConversation(owner, id)).assignee).toBeNull();
  });

  it("resolving frees the assignee's place: the oldest waiting conversation of their inboxes is theirs", async () => {
    const { owner, agent, talk, served } = await agentAtCapacity();
    const [older, newer] = [await handedOff(talk), await handedOff(talk)];
    expect(await assign(owner.organizationId, older)).toBeNull();
    const stream = await owner.fetch("GET", `/organizations/${owner.organizationId}/conversation-events/`);
    const events = liveEvents(stream);
    await events.next((e) => e.event === "ready");

    const res = await owner.fetch("POST", `/conversations/${served}/resolve/`);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await settledAssignment(owner, older)).toMatchObject({ status: "queued", assignee: { id: agent.userId } });
    const resolved = await events.next((e) => e.event === "conversation.updated" && e.data.reason === "resolved");
    expect(resolved.data.conversation).toMatchObject({ id: served });
    const pulled = await events.next((e) => e.event === "conversation.updated" && e.data.reason === "auto_assignment");
    expect(pulled.data).toMatchObject({ changes: { assignee: [null, agent.userId] }, conversation: { id: older } });
    await events.close();
    expect((await getConversation(owner, newer)).assignee).toBeNull();
  });

  it("handing back, unassigning and a takeover by another free the assignee's place too", async () => {
    const { owner, agent, talk, served: first } = await agentAtCapacity();
    const [second, third, fourth] = [await handedOff(talk), await handedOff(talk), await handedOff(talk)];

    const back = await owner.fetch("PATCH", `/conversations/${first}/update-auto-reply/`, { autoReplyEnabled: true });
    expect(back.status, await back.clone().text()).toBe(200);
    expect((await settledAssignment(owner, second)).assignee?.id).toBe(agent.userId);

    // The conversation taken from the agent is not pulled back to them: the next waiting one is; it waits for a place.
    const unassign = await owner.fetch("POST", `/conversations/${second}/assign/`, { assigneeId: null });
    expect(unassign.status, await unassign.clone().text()).toBe(200);
    expect((await settledAssignment(owner, third)).assignee?.id).toBe(agent.userId);
    expect(await getConversation(owner, second)).toMatchObject({ status: "queued", assignee: null });

    // Taken over by the owner: the agent's place goes to the oldest waiting, now the one unassigned before.
    const takeOver = await owner.fetch("POST", `/conversations/${third}/take-over/`);
    expect(takeOver.status, await takeOver.clone().text()).toBe(200);
    expect((await settledAssignment(owner, second)).assignee?.id).toBe(agent.userId);
    expect((await getConversation(owner, third)).assignee?.id).toBe(owner.userId);
    expect((await getConversation(owner, fourth)).assignee).toBeNull();
  });

  it(
    "an operator's manual hand-off (auto reply off) queues the conversation and assigns it like the assistant's " +
      "handoff",
    async () => {
      const owner = await seedOwner();
      const agent = await seedAgent(owner, "online");
      const { talk } = await assistantWithInbox(owner, ROUND_ROBIN);
      const { conversationId: id } = await talk("hello");
      const res = await owner.fetch("PATCH", `/conversations/${id}/update-auto-reply/`, { autoReplyEnabled: false });
      expect(res.status, await res.clone().text()).toBe(200);
      expect(await res.json()).toMatchObject({ status: "queued", progressStatus: "waiting_for_human" });
      expect(await settledAssignment(owner, id)).toMatchObject({
        status: "queued",
        progressStatus: "waiting_for_human",
        assignee: { id: agent.userId },
      });
    },
  );

  it("an operator's hand-off with nobody online stays queued and unassigned", async () => {
    const owner = await seedOwner();
    await seedAgent(owner, "offline");
    const { talk } = await assistantWithInbox(owner, ROUND_ROBIN);
    const { conversationId: id } = await talk("hello");
    const res = await owner.fetch("PATCH", `/conversations/${id}/update-auto-reply/`, { autoReplyEnabled: false });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await assign(owner.organizationId, id)).toBeNull();
    expect(await getConversation(owner, id)).toMatchObject({ status: "queued", assignee: null });
  });

  it("only members who may serve conversations (conversation.manage) are assigned, a team's members too", async () => {
    const owner = await seedOwner();
    const noRights = await seedMember(owner, []);
    const reader = await seedMember(owner, ["conversation.view"]);
    const agent = await seedAgent(owner, "offline");
    const team = await seedTeam(owner, [noRights.memberId, reader.memberId, agent.memberId]);
    for (const member of [noRights, reader]) await setAvailability(member, "online");
    const { talk } = await assistantWithInbox(owner, { ...ROUND_ROBIN, teamId: team });
    const id = await handedOff(talk);
    // Whether or not the handoff's own run has come yet, nobody it may give the conversation to is online.
    expect(await assign(owner.organizationId, id)).toBeNull();
    expect(await getConversation(owner, id)).toMatchObject({ status: "queued", assignee: null });
    expect((await noRights.fetch("GET", `/conversations/${id}/`)).status).toBe(403);
    // It waits for someone who can answer it.
    await setAvailability(agent, "online");
    expect((await getConversation(owner, id)).assignee?.id).toBe(agent.userId);
  });

  it("a conversation given to another team goes to that team's members, not back to the inbox team's", async () => {
    const owner = await seedOwner();
    const a = await seedAgent(owner, "online");
    const b = await seedAgent(owner, "offline");
    const [inboxTeam, otherTeam] = [await seedTeam(owner, [a.memberId]), await seedTeam(owner, [b.memberId])];
    const { talk } = await assistantWithInbox(owner, { ...ROUND_ROBIN, teamId: inboxTeam });
    const id = await handedOff(talk);
    expect((await settledAssignment(owner, id)).assignee?.id).toBe(a.userId);

    // Given to the other team alone: a, outside it, is released for its members to take, and not given it again.
    const res = await owner.fetch("POST", `/conversations/${id}/assign/`, { teamId: otherTeam });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toMatchObject({ assignee: null, team: { id: otherTeam } });
    expect(await assign(owner.organizationId, id)).toBeNull();
    expect(await getConversation(owner, id)).toMatchObject({ assignee: null, team: { id: otherTeam } });
    await setAvailability(b, "online");
    expect(await getConversation(owner, id)).toMatchObject({ assignee: { id: b.userId }, team: { id: otherTeam } });
  });

  it("coming online pulls a conversation only to its team's members: its own team, before its inbox's", async () => {
    const owner = await seedOwner();
    const a = await seedAgent(owner, "offline");
    const b = await seedAgent(owner, "offline");
    const [inboxTeam, otherTeam] = [await seedTeam(owner, [a.memberId]), await seedTeam(owner, [b.memberId])];
    const { talk } = await assistantWithInbox(owner, { ...ROUND_ROBIN, teamId: inboxTeam });
    const id = await handedOff(talk);
    const res = await owner.fetch("POST", `/conversations/${id}/assign/`, { teamId: otherTeam });
    expect(res.status, await res.clone().text()).toBe(200);
    // assign/ refuses a for it now; coming online does not give it to them either.
    await expectError(await owner.fetch("POST", `/conversations/${id}/assign/`, { assigneeId: a.userId }), 400);
    await setAvailability(a, "online");
    expect((await getConversation(owner, id)).assignee).toBeNull();
    await setAvailability(b, "online");
    expect((await getConversation(owner, id)).assignee?.id).toBe(b.userId);
  });

  it("once the inbox's team is deleted, its handoffs go to every member who may serve them", async () => {
    const owner = await seedOwner();
    const agent = await seedAgent(owner, "online");
    const team = await seedTeam(owner, [agent.memberId]);
    const { talk, inboxId } = await assistantWithInbox(owner, { ...ROUND_ROBIN, teamId: team });
    const del = await owner.fetch("DELETE", `/organizations/${owner.organizationId}/groups/${team}/`);
    expect(del.status, await del.clone().text()).toBe(204);
    expect(await (await owner.fetch("GET", `/inboxes/${inboxId}/`)).json()).toMatchObject({
      assignment: { mode: "round_robin", teamId: null, capacity: 5 },
    });
    // The agent kept conversation.manage through their own group.
    expect((await settledAssignment(owner, await handedOff(talk))).assignee?.id).toBe(agent.userId);
  });
});

/** The assignee changes recorded as the conversation's lifecycle events, oldest first, with their reason. */
const assigneeEvents = async (organizationId: string, id: string) =>
  (
    await d1(await conversationData(organizationId, id))
      .prepare("SELECT changes, reason FROM conversation_events WHERE conversation_id = ? ORDER BY created_at, id")
      .bind(id)
      .all<{ changes: string; reason: string }>()
  ).results
    .map((e) => [JSON.parse(e.changes).assignee, e.reason])
    .filter(([assignee]) => assignee);

describe("a member who can no longer be assigned", () => {
  it("removing a member releases the queued conversation they were assigned, for another agent to take", async () => {
    const { owner, agent: leaving, served: id } = await agentServing();

    const removed = await owner.fetch("DELETE", `/organizations/${owner.organizationId}/members/${leaving.memberId}/`);
    expect(removed.status).toBe(204);
    // Released as an unassignment is: its lifecycle event, for the live inbox and the webhooks that opt in.
    expect(await getConversation(owner, id)).toMatchObject({ status: "queued", assignee: null });
    expect((await assigneeEvents(owner.organizationId, id)).at(-1)).toEqual([[leaving.userId, null], "operator"]);
    // Another agent comes online: the conversation still waits for a person, and it is theirs to take.
    const staying = await seedAgent(owner, "online");
    const after = await waitFor(
      () => getConversation(owner, id),
      (c) => c.assignee !== null,
      2000,
    );
    expect(after.status).toBe("queued");
    expect(after.assignee?.id, "still assigned to a user who is no longer a member").toBe(staying.userId);
  });

  it("a member coming online between their conversations' release and their removal is given none again", async () => {
    const { owner, agent: leaving, served: id } = await agentServing();
    // Their console tab comes back (availability/ or presence) once the release is done, before the membership goes.
    const control = db();
    const racing = new Proxy(control, {
      get(target, prop) {
        const value = Reflect.get(target, prop);
        if (prop !== "delete") return typeof value === "function" ? value.bind(target) : value;
        return (table: Parameters<Db["delete"]>[0]) =>
          table !== members
            ? target.delete(table)
            : {
                where: async (where: Parameters<ReturnType<Db["delete"]>["where"]>[0]) => {
                  await comeBack(env, target, owner.organizationId, leaving.memberId, "online");
                  return await target.delete(table).where(where);
                },
              };
      },
    }) as Db;
    const background: Promise<unknown>[] = [];
    const target = { id: leaving.memberId, userId: leaving.userId, isOwner: false };
    await removeMember(
      env,
      racing,
      owner.organizationId,
      target,
      { name: "Owner", avatar: null },
      {
        waitUntil: (promise) => background.push(promise),
      },
    );
    await Promise.all(background);

    expect(await db().select().from(members).where(eq(members.id, leaving.memberId))).toEqual([]);
    const data = await conversationData(owner.organizationId, id);
    const [row] = await data.select().from(conversations).where(eq(conversations.id, id));
    expect(row, "assigned to a user who is no longer a member").toMatchObject({ status: "queued", assigneeId: null });
  });

  /**
   * A queued conversation of a round-robin inbox with one online agent, assigned by a round-robin that reads the agent
   * as eligible, then has `change` run whole before its write.
   */
  async function assignedAcross(change: (owner: Actor, agent: Agent) => Promise<unknown>) {
    const owner = await seedOwner();
    const agent = await seedAgent(owner, "offline");
    // Handed off in a manual inbox, so that no assignment comes before the one raced here.
    const { inboxId, talk } = await assistantWithInbox(owner, null);
    const id = await handedOff(talk);
    expect((await owner.fetch("PATCH", `/inboxes/${inboxId}/`, { assignment: ROUND_ROBIN })).status).toBe(200);
    // Online as the round-robin reads it; written straight, as coming online through the API assigns at once.
    await db().update(members).set({ availability: "online" }).where(eq(members.id, agent.memberId));
    const data = await conversationData(owner.organizationId, id);
    const event = await autoAssign(
      db(),
      d1BatchingAfter(data, () => change(owner, agent)),
      id,
    );
    const [row] = await data.select().from(conversations).where(eq(conversations.id, id));
    return { owner, agent, id, event, row: row! };
  }

  it("a round-robin that read a member as eligible before their removal, writing after it, leaves none", async () => {
    const background: Promise<unknown>[] = [];
    // The whole removal (offline, release, delete, the release after the delete) between the read and the write.
    const removal = (owner: Actor, agent: Agent) =>
      removeMember(
        env,
        db(),
        owner.organizationId,
        { id: agent.memberId, userId: agent.userId, isOwner: false },
        { name: "Owner", avatar: null },
        { waitUntil: (promise) => background.push(promise) },
      );
    const { owner, agent, id, event, row } = await assignedAcross(removal);
    await Promise.all(background);
    expect(await db().select().from(members).where(eq(members.id, agent.memberId))).toEqual([]);
    expect(row, "assigned to a user who is no longer a member").toMatchObject({ status: "queued", assigneeId: null });
    expect(event).toBeNull();
    // The write landed and was taken back: both told, for the webhooks that follow the assignee.
    expect(await assigneeEvents(owner.organizationId, id)).toEqual([
      [[null, agent.userId], "auto_assignment"],
      [[agent.userId, null], "auto_assignment"],
    ]);
  });

  it("nor one that read them as eligible before their groups stopped granting conversation.manage", async () => {
    const demotion = async (owner: Actor, agent: Agent) => {
      const path = `/organizations/${owner.organizationId}/members/${agent.memberId}/update-groups/`;
      expect((await owner.fetch("POST", path, { groups: [] })).status).toBe(200);
    };
    const { row } = await assignedAcross(demotion);
    expect(row, "assigned to a member who may not serve it").toMatchObject({ status: "queued", assigneeId: null });
  });

  it("a round-robin reading its inbox's team before its delete, writing after its purge ran, links none", async () => {
    const owner = await seedOwner();
    const agent = await seedAgent(owner, "offline");
    const team = await seedTeam(owner, [agent.memberId]);
    const { inboxId, talk } = await assistantWithInbox(owner, null);
    const id = await handedOff(talk);
    const roundRobin = { assignment: { ...ROUND_ROBIN, teamId: team } };
    expect((await owner.fetch("PATCH", `/inboxes/${inboxId}/`, roundRobin)).status).toBe(200);
    await db().update(members).set({ availability: "online" }).where(eq(members.id, agent.memberId));
    // The whole delete (both purge writes, the housekeeping's run) between the round-robin's reads and its write.
    const remove = async () => {
      const del = await owner.fetch("DELETE", `/organizations/${owner.organizationId}/groups/${team}/`);
      expect(del.status, await del.clone().text()).toBe(204);
      await purgedThrough(owner.organizationId, "group", team);
    };
    const data = await conversationData(owner.organizationId, id);
    await autoAssign(db(), d1BatchingAfter(data, remove), id);
    await purgedThrough(owner.organizationId, "group", team);
    const [row] = await data.select().from(conversations).where(eq(conversations.id, id));
    expect(row).toMatchObject({ assigneeId: agent.userId, teamId: null });
  });

  it("a release that finds the conversation reassigned since it read it leaves the new assignee", async () => {
    const { owner, agent: leaving, served: id } = await agentServing();
    const data = await conversationData(owner.organizationId, id);
    const [read] = await data.select().from(conversations).where(eq(conversations.id, id));
    const other = await seedAgent(owner, "offline");
    const reassigned = await owner.fetch("POST", `/conversations/${id}/assign/`, { assigneeId: other.userId });
    expect(reassigned.status).toBe(200);

    // The release of `leaving` (assignment/release.ts), with the row it read before the reassignment.
    const change = { assigneeId: null, whileAssignee: leaving.userId };
    const made = await conversationObject(env, id).change(read!, change, { name: "Owner", avatar: null }, "operator");
    expect(made).toBe(false);
    expect((await getConversation(owner, id)).assignee?.id).toBe(other.userId);
    expect((await assigneeEvents(owner.organizationId, id)).at(-1)).toEqual([
      [leaving.userId, other.userId],
      "operator",
    ]);
  });

  it("a member whose groups no longer grant conversation.manage loses their conversations to one who may", async () => {
    const { owner, agent: demoted, served: id } = await agentServing();
    const other = await seedAgent(owner, "online");

    const path = `/organizations/${owner.organizationId}/members/${demoted.memberId}/update-groups/`;
    expect((await owner.fetch("POST", path, { groups: [] })).status).toBe(200);
    expect((await getConversation(owner, id)).assignee?.id).not.toBe(demoted.userId);
    const after = await waitFor(
      () => getConversation(owner, id),
      (c) => c.assignee !== null,
      2000,
    );
    expect(after).toMatchObject({ status: "queued", assignee: { id: other.userId } });
    expect(await assigneeEvents(owner.organizationId, id)).toEqual([
      [[null, demoted.userId], "auto_assignment"],
      [[demoted.userId, null], "operator"],
      [[null, other.userId], "auto_assignment"],
    ]);
  });

  it("one who joins a group as it is deleted, so losing conversation.manage, loses their conversations", async () => {
    const { owner, agent: joining, served: id } = await agentServing();
    const team = await createGroup(owner, ["conversation.manage"]);
    // After the delete began, before its batch: the agent's groups become the team alone (they may still serve).
    const joins = async () => {
      const path = `/organizations/${owner.organizationId}/members/${joining.memberId}/update-groups/`;
      expect((await owner.fetch("POST", path, { groups: [team.id] })).status).toBe(200);
    };
    const deletes = (sql: string[]) => sql.some((s) => /^delete from "groups"/i.test(s));
    const res = await whileBatching(env.DB, deletes, joins, () =>
      owner.fetch("DELETE", `/organizations/${owner.organizationId}/groups/${team.id}/`),
    );
    expect(res.status).toBe(204);
    expect((await getConversation(owner, id)).assignee?.id).not.toBe(joining.userId);
  });
});
