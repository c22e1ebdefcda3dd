import { describe, expect, it } from "vitest";
import { PREFIXES, seedMember, seedOwner } from "../../../harness";
import { expectNotFound, expectInvalid } from "../../../support/refusals";
import { createChatbot } from "../../../fixtures/chatbots";
import { byId, createGroup, expectLinksGuarded, linksPage } from "../helpers";
import { addChatbots, groupChatbotsPath } from "./helpers";

const page = (res: Response) => linksPage<"group-chatbots">(res);

describe("GET .../groups/{groupPk}/group-chatbots/", () => {
  it.each(PREFIXES)("lists the group's assistants, oldest link first, in page form under %s", async (prefix) => {
    const owner = await seedOwner();
    const group = await createGroup(owner);
    const other = await createGroup(owner);
    const [a, b, c] = [await createChatbot(owner), await createChatbot(owner), await createChatbot(owner)];
    const first = await addChatbots(owner, group.id, [a.id, b.id]);
    await addChatbots(owner, other.id, [c.id]);
    const [third] = await addChatbots(owner, group.id, [c.id]);
    const all = await page(
      await owner.fetch("GET", groupChatbotsPath(owner.organizationId, group.id), undefined, { prefix }),
    );
    expect(all).toMatchObject({ count: 3, next: null, previous: null });
    expect(all.results).toEqual([...[...first].sort(byId), third]);
    const p1 = await page(await owner.fetch("GET", `${groupChatbotsPath(owner.organizationId, group.id)}?page_size=2`));
    expect(p1.next).toContain("page=2");
    const p2 = await page(
      await owner.fetch("GET", `${groupChatbotsPath(owner.organizationId, group.id)}?page=2&pageSize=2`),
    );
    expect(p2.results).toEqual([third]);
    await expectNotFound(
      await owner.fetch("GET", `${groupChatbotsPath(owner.organizationId, group.id)}?page=3&pageSize=2`),
    );
  });

  it("400 for a page that is not a positive integer", async () => {
    const owner = await seedOwner();
    const group = await createGroup(owner, []);
    for (const p of ["0", "abc"]) {
      await expectInvalid(
        await owner.fetch("GET", `${groupChatbotsPath(owner.organizationId, group.id)}?page=${p}`),
        "page",
      );
    }
  });

  it("filters by `query` on the assistant's name, case-insensitive", async () => {
    const owner = await seedOwner();
    const group = await createGroup(owner);
    const sales = await createChatbot(owner, { name: "Sales desk" });
    const support = await createChatbot(owner, { name: "Support desk" });
    await addChatbots(owner, group.id, [sales.id, support.id]);
    const ids = async (q: string) =>
      (
        await page(
          await owner.fetch(
            "GET",
            `${groupChatbotsPath(owner.organizationId, group.id)}?query=${encodeURIComponent(q)}`,
          ),
        )
      ).results.map((l) => l.chatbot.id);
    expect(await ids("SALES")).toEqual([sales.id]);
    expect((await ids("desk")).sort()).toEqual([sales.id, support.id].sort());
    expect(await ids("nothing")).toEqual([]);
  });

  it(
    "group.view suffices and shows only assistants the caller can see; without it 403; another organization's " +
      "group 404; 401",
    async () => {
      const owner = await seedOwner();
      const viewer = await seedMember(owner, ["group.view", "chatbot.view"]);
      const group = await createGroup(owner);
      const seen = await createChatbot(owner, { groups: [{ id: viewer.groupId }] });
      const hidden = await createChatbot(owner);
      await addChatbots(owner, group.id, [seen.id, hidden.id]);
      const body = await page(await viewer.fetch("GET", groupChatbotsPath(owner.organizationId, group.id)));
      expect(body.count).toBe(1);
      expect(body.results.map((l) => l.chatbot.id)).toEqual([seen.id]);
      const denied = await seedMember(owner, ["chatbot.view"]);
      await expectLinksGuarded({ owner, denied }, "group-chatbots", { method: "GET", groupId: group.id });
    },
  );
});
