import { describe, expect, it } from "vitest";
import { chatbots } from "../../../src/db/schema";
import { PREFIXES, call, expectError, seedMember, seedOwner } from "../../harness";
import { expectInvalid } from "../../support/refusals";
import { expectQueryFindsEitherUnicodeForm } from "../../support/unicode-names";
import { createChatbot } from "../../fixtures/chatbots";
import { page } from "./helpers";

describe("GET /chatbots/", () => {
  it.each(PREFIXES)("lists the organization's assistants newest first in page form under %s", async (prefix) => {
    const owner = await seedOwner();
    const a = await createChatbot(owner);
    const b = await createChatbot(owner);
    const c = await createChatbot(owner);
    await createChatbot(await seedOwner());
    const all = await page<"GET /chatbots/">(await owner.fetch("GET", "/chatbots/", undefined, { prefix }));
    expect(all).toMatchObject({ count: 3, next: null, previous: null });
    expect(all.results.map((x) => x.id)).toEqual([c.id, b.id, a.id]);
    expect(all.results[0]).toEqual(c);
    const first = await page<"GET /chatbots/">(await owner.fetch("GET", "/chatbots/?page_size=2"));
    expect(first.results.map((x) => x.id)).toEqual([c.id, b.id]);
    expect(first.next).toContain("page=2");
    const second = await page<"GET /chatbots/">(await owner.fetch("GET", "/chatbots/?page=2&pageSize=2"));
    expect(second.results.map((x) => x.id)).toEqual([a.id]);
    await expectError(await owner.fetch("GET", "/chatbots/?page=3&pageSize=2"), 404, "not_found");
  });

  it("filters by `query` (name contains, case-insensitive, % literal) and `replyMode`", async () => {
    const owner = await seedOwner();
    const sales = await createChatbot(owner, { name: "Sales 100% Bot" });
    const support = await createChatbot(owner, { name: "Support", replyMode: "agent" });
    const ids = async (qs: string) =>
      (await page<"GET /chatbots/">(await owner.fetch("GET", `/chatbots/?${qs}`))).results.map((b) => b.id);
    expect(await ids("query=SALES")).toEqual([sales.id]);
    expect(await ids(`query=${encodeURIComponent("0%")}`)).toEqual([sales.id]);
    expect(await ids(`query=${encodeURIComponent("%")}`)).toEqual([sales.id]);
    expect(await ids("reply_mode=agent")).toEqual([support.id]);
    expect(await ids("replyMode=normal&query=support")).toEqual([]);
    await expectInvalid(await owner.fetch("GET", "/chatbots/?replyMode=loud"), "replyMode");
  });

  it("`query` finds a name in whichever Unicode form it was typed or stored (composed NFC or decomposed)", async () => {
    const owner = await seedOwner();
    await expectQueryFindsEitherUnicodeForm({
      create: (name) => createChatbot(owner, { name }),
      table: chatbots,
      search: async (query) =>
        (
          await page<"GET /chatbots/">(await owner.fetch("GET", `/chatbots/?query=${encodeURIComponent(query)}`))
        ).results.map((b) => b.id),
    });
  });

  it("a member sees only assistants of their groups (with chatbot.view) and their own", async () => {
    const owner = await seedOwner();
    const viewer = await seedMember(owner, ["chatbot.view"]);
    const theirs = await createChatbot(owner, { groups: [{ id: viewer.groupId }] });
    await createChatbot(owner);
    const body = await page<"GET /chatbots/">(await viewer.fetch("GET", "/chatbots/"));
    expect(body.count).toBe(1);
    expect(body.results.map((b) => b.id)).toEqual([theirs.id]);
    expect(body.results[0]).toMatchObject({ canUpdate: false, canDelete: false });
    const plain = await seedMember(owner);
    expect((await page<"GET /chatbots/">(await plain.fetch("GET", "/chatbots/"))).count).toBe(0);
  });

  it(
    "merges the caller's personal assistants with the organization's: newest first across pages, counted, " +
      "searched",
    async () => {
      const owner = await seedOwner();
      const member = await seedMember(owner, ["chatbot.view", "chatbot.manage"]);
      const given = await createChatbot(owner, { name: "Given A", groups: [{ id: member.groupId }] });
      const personal = await createChatbot(member, { name: "Personal A", organization: null });
      await createChatbot(owner, { name: "Not given A" });
      const own = await createChatbot(member, { name: "Own B" });
      const later = await createChatbot(member, { name: "Personal B", organization: null });
      for (const [actor, expected] of [
        [member, [later, own, personal, given]],
        [owner, [own, { name: "Not given A" }, given]],
      ] as const) {
        const all = await page<"GET /chatbots/">(await actor.fetch("GET", "/chatbots/"));
        expect(all.count).toBe(expected.length);
        expect(all.results.map((b) => b.name)).toEqual(expected.map((b) => b.name));
      }
      const pages = [];
      for (let n = 1; n <= 2; n++)
        pages.push(await page<"GET /chatbots/">(await member.fetch("GET", `/chatbots/?page=${n}&pageSize=3`)));
      expect(pages.map((p) => [p.count, p.results.map((b) => b.name)])).toEqual([
        [4, ["Personal B", "Own B", "Personal A"]],
        [4, ["Given A"]],
      ]);
      const searched = await page<"GET /chatbots/">(
        await member.fetch("GET", "/chatbots/?query=%20a&pageSize=1&page=2"),
      );
      expect([searched.count, searched.results.map((b) => b.name)]).toEqual([2, ["Given A"]]);
    },
  );

  it("a page or page size that is not a number is a 400 that says a number is expected, without NaN", async () => {
    const owner = await seedOwner();
    for (const param of ["page", "pageSize", "page_size"]) {
      const body = await expectError(await owner.fetch("GET", `/chatbots/?${param}=ten`), 400, "invalid");
      expect(Object.values(body.errors!)).toEqual([["Expected a number"]]);
      expect(body.detail).not.toContain("NaN");
    }
  });

  it("401 without a key", async () => {
    await expectError(await call("GET", "/api/v1/chatbots/"), 401, "not_authenticated");
  });
});
