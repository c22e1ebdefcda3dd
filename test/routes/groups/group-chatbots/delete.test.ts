import { describe, expect, it } from "vitest";
import { PREFIXES, call, expectError, seedMember, seedOwner } from "../../../harness";
import { expectDenied, expectNotFound } from "../../../support/refusals";
import { createChatbot } from "../../../fixtures/chatbots";
import { createGroup, expectLinkIdsNotFound } from "../helpers";
import { addChatbots, groupChatbotsPath, linksOfGroup } from "./helpers";

describe("DELETE .../groups/{groupPk}/group-chatbots/{id}/", () => {
  it.each(PREFIXES)("takes the assistant away from the group (the assistant stays) under %s", async (prefix) => {
    const owner = await seedOwner();
    const viewer = await seedMember(owner, ["chatbot.view"]);
    const bot = await createChatbot(owner);
    const [link] = await addChatbots(owner, viewer.groupId!, [bot.id]);
    expect((await viewer.fetch("GET", `/chatbots/${bot.id}/`)).status).toBe(200);
    const path = groupChatbotsPath(owner.organizationId, viewer.groupId!, `${link.id}/`);
    const res = await owner.fetch("DELETE", path, undefined, { prefix });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
    expect(await linksOfGroup(viewer.groupId!)).toEqual([]);
    await expectNotFound(await viewer.fetch("GET", `/chatbots/${bot.id}/`));
    expect((await owner.fetch("GET", `/chatbots/${bot.id}/`)).status).toBe(200);
    await expectNotFound(await owner.fetch("DELETE", path));
  });

  it(
    "403 with only group.view; 404 through another group, another organization, unknown or malformed ids; 401; " +
      "nothing is removed",
    async () => {
      const owner = await seedOwner();
      const viewer = await seedMember(owner, ["group.view"]);
      const group = await createGroup(owner);
      const sibling = await createGroup(owner);
      const bot = await createChatbot(owner);
      const [link] = await addChatbots(owner, group.id, [bot.id]);
      const path = groupChatbotsPath(owner.organizationId, group.id, `${link.id}/`);
      await expectDenied(await viewer.fetch("DELETE", path));
      const ids = { groupId: group.id, siblingId: sibling.id, linkId: link.id };
      await expectLinkIdsNotFound(owner, "group-chatbots", "DELETE", ids);
      await expectNotFound(await (await seedOwner()).fetch("DELETE", path));
      await expectError(await call("DELETE", `/api/v1${path}`), 401, "not_authenticated");
      expect(await linksOfGroup(group.id)).toHaveLength(1);
    },
  );

  it("a non-owner with group.manage cannot remove a link to an assistant they cannot see (404)", async () => {
    const owner = await seedOwner();
    const manager = await seedMember(owner, ["group.manage"]);
    const group = await createGroup(owner);
    const [link] = await addChatbots(owner, group.id, [(await createChatbot(owner)).id]);
    await expectNotFound(
      await manager.fetch("DELETE", groupChatbotsPath(owner.organizationId, group.id, `${link.id}/`)),
    );
    expect(await linksOfGroup(group.id)).toHaveLength(1);
  });
});
