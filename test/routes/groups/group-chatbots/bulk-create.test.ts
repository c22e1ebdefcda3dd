import { describe, expect, it } from "vitest";
import { NO_SUCH_ID, PREFIXES, expectError, seedMember, seedOwner } from "../../../harness";
import { expectInvalid } from "../../../support/refusals";
import { createChatbot } from "../../../fixtures/chatbots";
import { createGroup, expectBulkCreateRefusals, expectLinksGuarded } from "../helpers";
import { addChatbots, groupChatbotsPath, linksOfGroup } from "./helpers";
import { bodyOf } from "../../../support/api";

describe("POST .../groups/{groupPk}/group-chatbots/bulk-create/", () => {
  it.each(PREFIXES)("gives assistants to a group and returns the created links under %s", async (prefix) => {
    const owner = await seedOwner();
    const group = await createGroup(owner, ["chatbot.view"]);
    const a = await createChatbot(owner);
    const b = await createChatbot(owner);
    const res = await owner.fetch(
      "POST",
      groupChatbotsPath(owner.organizationId, group.id, "bulk-create/"),
      { chatbots: [a.id, b.id] },
      { prefix },
    );
    expect(res.status, await res.clone().text()).toBe(201);
    const created =
      await bodyOf<"POST /organizations/{organizationPk}/groups/{groupPk}/group-chatbots/bulk-create/">(res);
    expect(created).toHaveLength(2);
    expect(created[0]).toMatchObject({ group: group.id, chatbot: { id: a.id, name: a.name } });
    expect(created[0].createdAt).toMatch(/^\d+$/);
    expect(created[1].chatbot.id).toBe(b.id);
    const after = await owner.fetch("GET", `/chatbots/${a.id}/`);
    expect(await after.json()).toMatchObject({ groups: [{ id: group.id, name: group.name }] });
  });

  it("skips assistants already in the group and duplicates in the request", async () => {
    const owner = await seedOwner();
    const group = await createGroup(owner);
    const a = await createChatbot(owner, { groups: [{ id: group.id }] });
    const b = await createChatbot(owner);
    const added = await addChatbots(owner, group.id, [a.id, b.id, b.id]);
    expect(added.map((l) => l.chatbot.id)).toEqual([b.id]);
    expect(await addChatbots(owner, group.id, [a.id, b.id])).toEqual([]);
    expect((await linksOfGroup(group.id)).map((l) => l.chatbotId).sort()).toEqual([a.id, b.id].sort());
  });

  it("the group's members with chatbot.view see the assistants at once", async () => {
    const owner = await seedOwner();
    const viewer = await seedMember(owner, ["chatbot.view"]);
    const bot = await createChatbot(owner);
    await expectError(await viewer.fetch("GET", `/chatbots/${bot.id}/`), 404, "not_found");
    await addChatbots(owner, viewer.groupId!, [bot.id]);
    expect((await viewer.fetch("GET", `/chatbots/${bot.id}/`)).status).toBe(200);
  });

  it(
    "400 naming `chatbots` for any id that is not an assistant of this organization (or a personal one); " +
      "nothing is added",
    async () => {
      const owner = await seedOwner();
      const other = await seedOwner();
      const group = await createGroup(owner);
      const mine = await createChatbot(owner);
      const theirs = await createChatbot(other);
      const personal = await createChatbot(owner, { organization: null });
      await expectBulkCreateRefusals(
        owner,
        groupChatbotsPath(owner.organizationId, group.id, "bulk-create/"),
        "chatbots",
        mine.id,
        [theirs.id, personal.id, NO_SUCH_ID, "not-a-uuid"],
      );
      expect(await linksOfGroup(group.id)).toHaveLength(0);
    },
  );

  it("a non-owner with group.manage can only give assistants they can see", async () => {
    const owner = await seedOwner();
    const manager = await seedMember(owner, ["group.manage", "chatbot.view"]);
    const group = await createGroup(owner);
    const hidden = await createChatbot(owner);
    const shared = await createChatbot(owner, { groups: [{ id: manager.groupId }] });
    await expectInvalid(
      await manager.fetch("POST", groupChatbotsPath(owner.organizationId, group.id, "bulk-create/"), {
        chatbots: [hidden.id],
      }),
      "chatbots",
    );
    expect((await addChatbots(manager, group.id, [shared.id])).map((l) => l.chatbot.id)).toEqual([shared.id]);
  });

  it("403 with only group.view, 404 for another organization's group, 401 without a key", async () => {
    const owner = await seedOwner();
    const group = await createGroup(owner);
    const bot = await createChatbot(owner);
    const denied = await seedMember(owner, ["group.view"]);
    const request = { method: "POST", groupId: group.id, rest: "bulk-create/", body: { chatbots: [bot.id] } } as const;
    const theirs = await expectLinksGuarded({ owner, denied }, "group-chatbots", request);
    expect(await linksOfGroup(group.id)).toHaveLength(0);
    expect(await linksOfGroup(theirs.id)).toHaveLength(0);
  });
});
