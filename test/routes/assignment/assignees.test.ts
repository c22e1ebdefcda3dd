import { describe, expect, it } from "vitest";
import { NO_SUCH_ID, PREFIXES, call, expectError, seedMember, seedOwner } from "../../harness";
import { bodyOf } from "../../support/api";
import { expectDenied, expectNotFound } from "../../support/refusals";
import { assistantWithInbox, handedOff, seedAgent, seedTeam } from "./fixtures";

const path = (id: string) => `/conversations/${id}/assignees/`;

describe("GET /conversations/{id}/assignees/", () => {
  it.each(PREFIXES)(
    "lists the members with their availability and whether they are in the conversation's team, and the teams (%s)",
    async (prefix) => {
      const owner = await seedOwner();
      const agent = await seedAgent(owner, "online");
      const team = await seedTeam(owner, [agent.memberId]);
      const { talk } = await assistantWithInbox(owner, null);
      const id = await handedOff(talk);

      // No team yet: every member may be assigned. The agent may assign, though they may not list members or groups.
      const res = await agent.fetch("GET", path(id), undefined, { prefix });
      expect(res.status, await res.clone().text()).toBe(200);
      const before = await bodyOf<"GET /conversations/{id}/assignees/">(res);
      const people = Object.fromEntries(before.members.map((m) => [m.id, m]));
      expect(people[agent.userId]).toMatchObject({ availability: "online", inTeam: true });
      expect(people[owner.userId]).toMatchObject({ availability: "offline", inTeam: true });
      expect(before.members).toHaveLength(2);
      expect(before.teams.map((t) => t.id)).toContain(team);
      expect((await agent.fetch("GET", `/organizations/${owner.organizationId}/members/`)).status).toBe(403);

      // Given the team, only its member is: assigning the owner is refused, the agent taken.
      const assigned = await owner.fetch("POST", `/conversations/${id}/assign/`, { teamId: team });
      expect(assigned.status, await assigned.clone().text()).toBe(200);
      const after = await bodyOf<"GET /conversations/{id}/assignees/">(await agent.fetch("GET", path(id)));
      const inTeam = Object.fromEntries(after.members.map((m) => [m.id, m.inTeam]));
      expect(inTeam).toEqual({ [agent.userId]: true, [owner.userId]: false });
      await expectError(
        await owner.fetch("POST", `/conversations/${id}/assign/`, { assigneeId: owner.userId }),
        400,
        "invalid",
      );
      const taken = await owner.fetch("POST", `/conversations/${id}/assign/`, { assigneeId: agent.userId });
      expect(taken.status, await taken.clone().text()).toBe(200);
    },
  );

  it("leaves out the members who may not serve conversations (assign/ refuses them)", async () => {
    const owner = await seedOwner();
    const agent = await seedAgent(owner);
    const noRights = await seedMember(owner, []);
    const reader = await seedMember(owner, ["conversation.view"]);
    const team = await seedTeam(owner, [agent.memberId, noRights.memberId, reader.memberId]);
    const { talk } = await assistantWithInbox(owner, null);
    const id = await handedOff(talk);
    for (const teamId of [null, team]) {
      expect((await owner.fetch("POST", `/conversations/${id}/assign/`, { teamId })).status).toBe(200);
      const listed = await bodyOf<"GET /conversations/{id}/assignees/">(await owner.fetch("GET", path(id)));
      expect(listed.members.map((m) => m.id).sort()).toEqual([owner.userId, agent.userId].sort());
    }
  });

  it("403 without conversation.manage", async () => {
    const owner = await seedOwner();
    const { talk } = await assistantWithInbox(owner, null);
    const id = await handedOff(talk);
    const reader = await seedMember(owner, ["conversation.view", "member.view"]);
    await expectDenied(await reader.fetch("GET", path(id)));
  });

  it("404 for another organization's conversation, or none", async () => {
    const owner = await seedOwner();
    const stranger = await seedOwner();
    const { talk } = await assistantWithInbox(stranger, null);
    const theirs = await handedOff(talk);
    await expectNotFound(await owner.fetch("GET", path(theirs)));
    await expectNotFound(await owner.fetch("GET", path(NO_SUCH_ID)));
    // Its only input is the path: an id that is not one is no conversation either.
    await expectNotFound(await owner.fetch("GET", path("not-an-id")));
  });

  it("401 without a key", async () => {
    await expectError(await call("GET", `/api/v1${path(NO_SUCH_ID)}`), 401, "not_authenticated");
  });
});
