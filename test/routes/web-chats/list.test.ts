import { describe, expect, it } from "vitest";
import { PREFIXES, call, expectError, seedMember, seedOwner } from "../../harness";
import { expectDenied } from "../../support/refusals";
import { createInbox } from "../inboxes/fixtures";
import { bodyOf } from "../../support/api";

describe("GET /web-chats/", () => {
  it.each(PREFIXES)("lists the organization's web chats, filtered by inbox (%s)", async (prefix) => {
    const owner = await seedOwner();
    const a = await createInbox(owner);
    const b = await createInbox(owner);
    await createInbox(owner, { channelType: "line" });
    await createInbox(await seedOwner());
    const list = async (query = "") =>
      await bodyOf<"GET /web-chats/">(await owner.fetch("GET", `/web-chats/${query}`, undefined, { prefix }));
    const all = await list();
    expect(all.count).toBe(2);
    expect(all.results.map((w) => w.id).sort()).toEqual([a.channel!.id, b.channel!.id].sort());
    const one = await list(`?inbox=${a.id}`);
    expect(one.results.map((w) => w.inbox)).toEqual([{ id: a.id, name: a.name }]);
  });

  it("400 for a malformed inbox filter", async () => {
    const owner = await seedOwner();
    const err = await expectError(await owner.fetch("GET", "/web-chats/?inbox=nope"), 400, "invalid");
    expect(err.errors).toHaveProperty("inbox");
  });

  it("403 without inbox.view", async () => {
    const owner = await seedOwner();
    await expectDenied(await (await seedMember(owner, ["chatbot.manage"])).fetch("GET", "/web-chats/"));
  });

  it("401 without a key", async () => {
    await expectError(await call("GET", "/api/v1/web-chats/"), 401, "not_authenticated");
  });
});
