import { describe, expect, it } from "vitest";
import { PREFIXES, call, expectError, seedMember, seedOwner } from "../../harness";
import { createChatbot } from "../../fixtures/chatbots";
import { seedTeam } from "./fixtures";

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
