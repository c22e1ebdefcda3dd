import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { env } from "cloudflare:workers";
import { groups, inboxes, webChats } from "../../../src/db/schema";
import { readAccess } from "../../../src/services/access";
import { updateInbox } from "../../../src/services/inboxes";
import { PREFIXES, call, db, expectError, parts, seedMember, seedOwner, unique, type Actor } from "../../harness";
import { createChatbot } from "../../fixtures/chatbots";
import { bodyOf } from "../../support/api";
import { expectInvalid } from "../../support/refusals";
import { updatingAfter, whileBatching } from "../../support/races";
import { assistantWithInbox, handedOff, seedAgent, seedTeam, settledAssignment } from "./fixtures";

describe("the inbox's assignment setting", () => {
  it.each(PREFIXES)("manual with capacity 5 by default; written with create, PATCH and PUT (%s)", async (prefix) => {
    const owner = await seedOwner();
    const team = await seedTeam(owner, []);
    const bot = await createChatbot(owner);
    const inboxPath = `/inboxes/${bot.defaultInbox!.id}/`;
    expect(await (await owner.fetch("GET", inboxPath, undefined, { prefix })).json()).toMatchObject({
      assignment: { mode: "manual", teamId: null, capacity: 5 },
    });
    const patched = await owner.fetch(
      "PATCH",
      inboxPath,
      { assignment: { mode: "round_robin", teamId: team, capacity: 3 } },
      { prefix },
    );
    expect(patched.status, await patched.clone().text()).toBe(200);
    expect(await patched.json()).toMatchObject({ assignment: { mode: "round_robin", teamId: team, capacity: 3 } });
    // Left out of a PATCH: kept; given without its optional fields: their defaults.
    expect(await (await owner.fetch("PATCH", inboxPath, { name: "Renamed" }, { prefix })).json()).toMatchObject({
      name: "Renamed",
      assignment: { mode: "round_robin", teamId: team },
    });
    expect(
      await (await owner.fetch("PATCH", inboxPath, { assignment: { mode: "round_robin" } }, { prefix })).json(),
    ).toMatchObject({ assignment: { mode: "round_robin", teamId: null, capacity: 5 } });

    const created = await owner.fetch(
      "POST",
      "/inboxes/",
      { name: "Mail", channelType: "email", assignment: { mode: "round_robin", teamId: team, capacity: 10 } },
      { prefix },
    );
    expect(created.status, await created.clone().text()).toBe(201);
    expect(await created.json()).toMatchObject({ assignment: { mode: "round_robin", teamId: team, capacity: 10 } });
  });

  it(
    "400 for another organization's team, a bad mode or capacity (nothing written); 401; 403 without " +
      "inbox.manage; 404 for another organization's inbox",
    async () => {
      const owner = await seedOwner();
      const other = await seedOwner();
      const viewer = await seedMember(owner, ["inbox.view"]);
      const foreignTeam = await seedTeam(other, []);
      const bot = await createChatbot(owner);
      const inboxPath = `/inboxes/${bot.defaultInbox!.id}/`;
      const bad = [
        { mode: "round_robin", teamId: foreignTeam },
        { mode: "everyone" },
        { mode: "manual", capacity: 0 },
        { mode: "manual", capacity: 101 },
        { capacity: 5 },
      ];
      for (const assignment of bad)
        await expectError(await owner.fetch("PATCH", inboxPath, { assignment }), 400, "invalid");
      const detail = (
        await expectError(
          await owner.fetch("POST", "/inboxes/", {
            name: "X",
            channelType: "email",
            assignment: { mode: "manual", teamId: foreignTeam },
          }),
          400,
        )
      ).detail;
      expect(detail).toMatch(/No such team/);
      await expectError(await call("PATCH", `/api/v1${inboxPath}`, { assignment: { mode: "manual" } }), 401);
      await expectError(await viewer.fetch("PATCH", inboxPath, { assignment: { mode: "round_robin" } }), 403);
      await expectError(await other.fetch("PATCH", inboxPath, { assignment: { mode: "round_robin" } }), 404);
      expect(await (await owner.fetch("GET", inboxPath)).json()).toMatchObject({
        assignment: { mode: "manual", teamId: null, capacity: 5 },
      });
    },
  );
});

describe("an inbox's team and the group's delete", () => {
  const groupPath = (owner: Actor, team: string) => `/organizations/${owner.organizationId}/groups/${team}/`;
  const deleteTeam = (owner: Actor, team: string) => async () => {
    const del = await owner.fetch("DELETE", groupPath(owner, team));
    expect(del.status, await del.clone().text()).toBe(204);
  };
  const stored = async (inboxId: string) => (await db().select().from(inboxes).where(eq(inboxes.id, inboxId)))[0];

  it("a PATCH that found its team before the group's delete and writes after it: 400, the team not kept", async () => {
    const owner = await seedOwner();
    const team = await seedTeam(owner, []);
    const { id: inboxId, name } = (await createChatbot(owner)).defaultInbox!;
    const access = (await readAccess(db(), owner.userId, owner.organizationId))!;
    // The whole delete between the PATCH's check of the team and its write.
    const raced = updatingAfter(db(), deleteTeam(owner, team));
    const update = updateInbox(raced, await parts(owner.organizationId), access, owner.userId, inboxId, {
      name: "Support",
      assignment: { mode: "round_robin", teamId: team, capacity: 5 },
    });
    await expect(update).rejects.toMatchObject({ status: 400, errors: { "assignment.teamId": expect.anything() } });
    // Nothing of the PATCH written: the statement that would have named the team wrote none of it.
    expect(await stored(inboxId)).toMatchObject({ name, assignment: null });
  });

  it("a POST whose team is deleted between its check and its write: 400 on assignment.teamId, no inbox", async () => {
    const owner = await seedOwner();
    const team = await seedTeam(owner, []);
    const name = unique("raced");
    const inserts = (sql: string[]) => sql.some((s) => /^insert into "inboxes"/i.test(s));
    const res = await whileBatching(env.DB, inserts, deleteTeam(owner, team), () =>
      owner.fetch("POST", "/inboxes/", {
        name,
        channelType: "web",
        assignment: { mode: "round_robin", teamId: team, capacity: 5 },
      }),
    );
    await expectInvalid(res, "assignment.teamId");
    expect(await db().select().from(inboxes).where(eq(inboxes.name, name))).toEqual([]);
    expect(await db().select().from(webChats).where(eq(webChats.name, name))).toEqual([]);
  });

  it("an inbox naming a gone team (written before the writes checked it) reads and assigns with none", async () => {
    const owner = await seedOwner();
    const agent = await seedAgent(owner, "online");
    const team = await seedTeam(owner, [agent.memberId]);
    const { inboxId, talk } = await assistantWithInbox(owner, { mode: "round_robin", teamId: team, capacity: 5 });
    // The group's row gone without its delete's clearing of the inbox: what a write racing the delete left.
    await db().delete(groups).where(eq(groups.id, team));
    expect((await stored(inboxId))?.assignment?.teamId).toBe(team);
    const read = await owner.fetch("GET", `/inboxes/${inboxId}/`);
    expect(read.status, await read.clone().text()).toBe(200);
    expect(await read.json()).toMatchObject({ assignment: { mode: "round_robin", teamId: null, capacity: 5 } });
    const listed = await bodyOf<"GET /inboxes/">(await owner.fetch("GET", "/inboxes/"));
    expect(listed.results.find((i) => i.id === inboxId)?.assignment.teamId).toBeNull();
    // Round-robin reads it as the delete would have left it: everyone who may serve (the agent has their own group).
    expect((await settledAssignment(owner, await handedOff(talk))).assignee?.id).toBe(agent.userId);
  });
});
