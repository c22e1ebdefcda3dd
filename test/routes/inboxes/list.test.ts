import { describe, expect, it } from "vitest";
import { PREFIXES, call, expectError, seedMember, seedOwner } from "../../harness";
import { createInbox, seedChatbot } from "./fixtures";
import { bodyOf } from "../../support/api";

describe("GET /inboxes/", () => {
  it.each(PREFIXES)("lists the organization's inboxes, with filters (%s)", async (prefix) => {
    const owner = await seedOwner();
    const stranger = await seedOwner();
    const bot = await seedChatbot(owner);
    const web = await createInbox(owner, { name: "Website 100%", chatbot: { id: bot.id } });
    const line = await createInbox(owner, { name: "LINE support", channelType: "line" });
    await createInbox(stranger, { name: "Website elsewhere" });
    const list = async (query = "") =>
      await bodyOf<"GET /inboxes/">(await owner.fetch("GET", `/inboxes/${query}`, undefined, { prefix }));
    const all = await list();
    expect(all.count).toBe(2);
    expect(all.results.map((i) => i.id).sort()).toEqual([line.id, web.id].sort());
    expect((await list("?channelType=line")).results.map((i) => i.id)).toEqual([line.id]);
    expect((await list("?channel_type=web")).results.map((i) => i.id)).toEqual([web.id]);
    expect((await list(`?chatbot=${bot.id}`)).results.map((i) => i.id)).toEqual([web.id]);
    expect((await list("?query=website")).results.map((i) => i.id)).toEqual([web.id]);
    expect((await list("?query=%25")).results.map((i) => i.id)).toEqual([web.id]);
    expect((await list("?query=_")).count).toBe(0);
  });

  it("pages with pageSize", async () => {
    const owner = await seedOwner();
    for (let i = 0; i < 3; i++) await createInbox(owner, { channelType: "api" });
    const page = await bodyOf<"GET /inboxes/">(await owner.fetch("GET", "/inboxes/?pageSize=2&page=2"));
    expect(page).toMatchObject({ count: 3, next: null });
    expect(page.results).toHaveLength(1);
    await expectError(await owner.fetch("GET", "/inboxes/?pageSize=2&page=3"), 404, "not_found");
  });

  it("400 for a bad filter", async () => {
    const owner = await seedOwner();
    const err = await expectError(await owner.fetch("GET", "/inboxes/?channelType=fax&chatbot=nope"), 400, "invalid");
    expect(Object.keys(err.errors!)).toEqual(expect.arrayContaining(["channelType", "chatbot"]));
  });

  it("403 without inbox.view; 200 with it", async () => {
    const owner = await seedOwner();
    await createInbox(owner);
    await expectError(await (await seedMember(owner)).fetch("GET", "/inboxes/"), 403, "permission_denied");
    const viewer = await seedMember(owner, ["inbox.view"]);
    expect((await bodyOf<"GET /inboxes/">(await viewer.fetch("GET", "/inboxes/"))).count).toBe(1);
  });

  it("401 without a key", async () => {
    await expectError(await call("GET", "/api/inboxes/"), 401, "not_authenticated");
  });
});
