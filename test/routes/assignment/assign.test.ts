import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { assignmentChange } from "../../../src/services/assignment/manual";
import { conversationObject } from "../../../src/services/conversations";
import { deleteGroup } from "../../../src/services/groups";
import {
  NO_SUCH_ID,
  PREFIXES,
  call,
  conversationRow,
  db,
  expectError,
  parts,
  seedMember,
  seedOwner,
} from "../../harness";
import { batchingAfter } from "../../support/races";
import { purgedThrough } from "../../support/purges";
import { liveEvents } from "../../support/sse";
import { assistantWithInbox, getConversation, handedOff, seedAgent, seedTeam } from "./fixtures";

describe("POST /conversations/{id}/assign/", () => {
  it.each(PREFIXES)(
    "assigns a member and a team, keeps the state, tells the live inbox; null clears (%s)",
    async (prefix) => {
      const owner = await seedOwner();
      const agent = await seedAgent(owner);
      const team = await seedTeam(owner, [agent.memberId]);
      const { talk } = await assistantWithInbox(owner, null);
      const id = await handedOff(talk);
      const queued = await getConversation(owner, id);
      expect(queued).toMatchObject({
        status: "queued",
        progressStatus: "waiting_for_human",
        assignee: null,
        team: null,
      });
      expect(Number(queued.waitingSince)).toBeGreaterThan(0);

      const stream = await owner.fetch("GET", `/organizations/${owner.organizationId}/conversation-events/`);
      const events = liveEvents(stream);
      await events.next((e) => e.event === "ready");
      const res = await owner.fetch(
        "POST",
        `/conversations/${id}/assign/`,
        { assigneeId: agent.userId, teamId: team },
        { prefix },
      );
      expect(res.status, await res.clone().text()).toBe(200);
      const assigned = await res.json();
      // Assigning is not taking: it waits, since the same moment, until the assignee answers.
      expect(assigned).toMatchObject({
        id,
        status: "queued",
        progressStatus: "waiting_for_human",
        assignee: { id: agent.userId },
        team: { id: team },
        waitingSince: queued.waitingSince,
      });
      const updated = await events.next((e) => e.event === "conversation.updated");
      expect(updated.data).toMatchObject({
        reason: "operator",
        changes: { assignee: [null, agent.userId] },
        conversation: { id, assignee: { id: agent.userId }, team: { id: team } },
      });
      await events.close();

      // The assignee answers: served, no longer waiting.
      expect((await agent.fetch("POST", "/messages/outgoing/", { conversation: id, content: "Sam here" })).status).toBe(
        201,
      );
      expect(await getConversation(owner, id)).toMatchObject({
        status: "open",
        progressStatus: "human_serving",
        waitingSince: null,
        assignee: { id: agent.userId },
      });

      const cleared = await owner.fetch(
        "POST",
        `/conversations/${id}/assign/`,
        { assigneeId: null, teamId: null },
        { prefix },
      );
      expect(await cleared.json()).toMatchObject({
        assignee: null,
        team: null,
        status: "open",
        progressStatus: "human_serving",
      });
    },
  );

  it("waitingSince: set when queued, kept while queued, cleared by take-over, hand back and resolve", async () => {
    const owner = await seedOwner();
    const { talk } = await assistantWithInbox(owner, null);
    const id = await handedOff(talk);
    const since = (await getConversation(owner, id)).waitingSince;
    expect(since).not.toBeNull();
    await talk("still there?", id);
    expect((await getConversation(owner, id)).waitingSince).toBe(since);
    await owner.fetch("POST", `/conversations/${id}/take-over/`);
    expect((await getConversation(owner, id)).waitingSince).toBeNull();
    await owner.fetch("PATCH", `/conversations/${id}/update-auto-reply/`, { autoReplyEnabled: false });
    expect((await getConversation(owner, id)).waitingSince).not.toBeNull();
    await owner.fetch("PATCH", `/conversations/${id}/update-auto-reply/`, { autoReplyEnabled: true });
    expect((await getConversation(owner, id)).waitingSince).toBeNull();
    await owner.fetch("PATCH", `/conversations/${id}/update-auto-reply/`, { autoReplyEnabled: false });
    await owner.fetch("POST", `/conversations/${id}/resolve/`);
    expect(await getConversation(owner, id)).toMatchObject({ status: "resolved", waitingSince: null });
  });

  it("400 for bad input, an outsider or a member outside the team; nothing changes", async () => {
    const owner = await seedOwner();
    const other = await seedOwner();
    const agent = await seedAgent(owner);
    const team = await seedTeam(owner, []);
    const otherTeam = await seedTeam(other, []);
    const { talk } = await assistantWithInbox(owner, null);
    const id = await handedOff(talk);
    const path = `/conversations/${id}/assign/`;
    expect((await expectError(await owner.fetch("POST", path, {}), 400, "invalid")).detail).toMatch(
      /assigneeId, teamId or both/,
    );
    await expectError(await owner.fetch("POST", path, { assigneeId: "nope" }), 400, "invalid");
    expect((await expectError(await owner.fetch("POST", path, { assigneeId: other.userId }), 400)).detail).toMatch(
      /not a member of your organization/,
    );
    expect((await expectError(await owner.fetch("POST", path, { teamId: otherTeam }), 400)).detail).toMatch(
      /No such team/,
    );
    expect(
      (await expectError(await owner.fetch("POST", path, { assigneeId: agent.userId, teamId: team }), 400)).detail,
    ).toMatch(/not a member of the conversation's team/);
    expect(await getConversation(owner, id)).toMatchObject({ assignee: null, team: null, status: "queued" });
  });

  it("400 for a member who may not serve conversations (without conversation.manage), in the team or not", async () => {
    const owner = await seedOwner();
    const noRights = await seedMember(owner, []);
    const reader = await seedMember(owner, ["conversation.view"]);
    const team = await seedTeam(owner, [noRights.memberId, reader.memberId]);
    const { talk } = await assistantWithInbox(owner, null);
    const id = await handedOff(talk);
    const path = `/conversations/${id}/assign/`;
    for (const body of [
      { assigneeId: noRights.userId },
      { assigneeId: reader.userId },
      { assigneeId: reader.userId, teamId: team },
    ]) {
      const refused = await expectError(await owner.fetch("POST", path, body), 400, "invalid");
      expect(refused.detail, JSON.stringify(body)).toMatch(/may not serve conversations.*conversation\.manage/);
    }
    // They could not have opened it.
    expect((await noRights.fetch("GET", `/conversations/${id}/`)).status).toBe(403);
    expect(await getConversation(owner, id)).toMatchObject({ assignee: null, team: null, status: "queued" });
  });

  it("a member outside the team who took it over keeps it; the assignment sent back as is passes", async () => {
    const owner = await seedOwner();
    const agent = await seedAgent(owner);
    const team = await seedTeam(owner, []);
    const { talk } = await assistantWithInbox(owner, null);
    const id = await handedOff(talk);
    const path = `/conversations/${id}/assign/`;
    expect((await owner.fetch("POST", path, { teamId: team })).status).toBe(200);
    // The owner is not in the team; a lead takes it over all the same.
    expect((await owner.fetch("POST", `/conversations/${id}/take-over/`)).status).toBe(200);
    const taken = await getConversation(owner, id);
    expect([taken.assignee?.id, taken.team?.id]).toEqual([owner.userId, team]);
    for (const body of [{ teamId: team }, { assigneeId: owner.userId }, { assigneeId: owner.userId, teamId: team }]) {
      const res = await owner.fetch("POST", path, body);
      expect(res.status, `${JSON.stringify(body)}: ${await res.clone().text()}`).toBe(200);
    }
    // A new choice still follows the rule: another member outside the team is refused.
    const refused = await expectError(await owner.fetch("POST", path, { assigneeId: agent.userId }), 400);
    expect(refused.detail).toMatch(/not a member of the conversation's team/);
    expect((await getConversation(owner, id)).assignee?.id).toBe(owner.userId);
    // Given to another team alone, it is released for that team's members, not refused; one in it stays assigned.
    const other = await seedTeam(owner, [agent.memberId]);
    const moved = await owner.fetch("POST", path, { teamId: other });
    expect(moved.status, await moved.clone().text()).toBe(200);
    const released = await getConversation(owner, id);
    expect([released.assignee, released.team?.id]).toEqual([null, other]);
    expect((await owner.fetch("POST", path, { assigneeId: agent.userId })).status).toBe(200);
    expect((await owner.fetch("POST", path, { teamId: null })).status).toBe(200);
    const kept = await getConversation(owner, id);
    expect([kept.assignee?.id, kept.team]).toEqual([agent.userId, null]);
  });

  it("a team given while it is deleted is unlinked, even with its purge run before the team went", async () => {
    const owner = await seedOwner();
    const team = await seedTeam(owner, []);
    const { talk } = await assistantWithInbox(owner, null);
    const { conversationId: id } = await talk("hello");
    // After the delete wrote its purge, before it deletes the team: the housekeeping runs the purge (nothing to take
    // yet), then the conversation is given the team, which still exists.
    const assigned = async () => {
      await purgedThrough(owner.organizationId, "group", team);
      expect((await owner.fetch("POST", `/conversations/${id}/assign/`, { teamId: team })).status).toBe(200);
    };
    await deleteGroup(batchingAfter(db(), assigned), await parts(owner.organizationId), owner.organizationId, team);
    expect((await conversationRow(owner.organizationId, id)).teamId).toBe(team);
    await purgedThrough(owner.organizationId, "group", team);
    expect((await conversationRow(owner.organizationId, id)).teamId).toBeNull();
  });

  it("a team read before its delete and given after its purge's last run is unlinked by the next run", async () => {
    const owner = await seedOwner();
    const team = await seedTeam(owner, []);
    const { talk } = await assistantWithInbox(owner, null);
    const { conversationId: id } = await talk("hello");
    // The route's steps, with the whole delete (both purge writes, the housekeeping's run) between its check of the
    // team and the object's write.
    const before = await conversationRow(owner.organizationId, id);
    const change = await assignmentChange(db(), before, { teamId: team });
    const del = await owner.fetch("DELETE", `/organizations/${owner.organizationId}/groups/${team}/`);
    expect(del.status, await del.clone().text()).toBe(204);
    await purgedThrough(owner.organizationId, "group", team);
    expect(await conversationObject(env, id).change(before, change, { name: "Owner", avatar: null })).toBe(true);
    await purgedThrough(owner.organizationId, "group", team);
    expect((await conversationRow(owner.organizationId, id)).teamId, "linked to a deleted team").toBeNull();
  });

  it("401 without a key, 403 without conversation.manage, 404 for a foreign or missing conversation", async () => {
    const owner = await seedOwner();
    const other = await seedOwner();
    const viewer = await seedMember(owner, ["conversation.view"]);
    const { talk } = await assistantWithInbox(owner, null);
    const id = await handedOff(talk);
    const body = { assigneeId: owner.userId };
    await expectError(await call("POST", `/api/v1/conversations/${id}/assign/`, body), 401);
    await expectError(await viewer.fetch("POST", `/conversations/${id}/assign/`, body), 403);
    await expectError(await other.fetch("POST", `/conversations/${id}/assign/`, { assigneeId: other.userId }), 404);
    await expectError(await owner.fetch("POST", `/conversations/${NO_SUCH_ID}/assign/`, body), 404);
    expect((await getConversation(owner, id)).assignee).toBeNull();
  });
});
