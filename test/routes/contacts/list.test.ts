import { describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { contacts, tags } from "../../../src/db/schema";
import { PREFIXES, call, data, expectError, seedMember, seedOwner, type Actor } from "../../harness";
import { expectDenied, expectNotFound } from "../../support/refusals";
import { createInbox } from "../inboxes/fixtures";
import { createContact, type ContactPage } from "./fixtures";
import { bodyOf } from "../../support/api";

const lister =
  (owner: Actor, prefix = "/api/v1") =>
  async (query = "") => {
    const res = await owner.fetch("GET", `/contacts/${query}`, undefined, { prefix });
    expect(res.status, await res.clone().text()).toBe(200);
    return await bodyOf<"GET /contacts/">(res);
  };
const ids = (page: ContactPage) => page.results.map((c) => c.id);
const q = encodeURIComponent;

describe("GET /contacts/", () => {
  it.each(PREFIXES)("lists the organization's contacts, newest first (%s)", async (prefix) => {
    const owner = await seedOwner();
    const a = await createContact(owner);
    const b = await createContact(owner);
    await createContact(await seedOwner());
    const page = await lister(owner, prefix)();
    expect(page).toMatchObject({ count: 2, next: null, previous: null });
    expect(ids(page)).toEqual([b.id, a.id]);
  });

  it("filters by inboxes (any of them), by the deprecated inbox, and by channel type", async () => {
    const owner = await seedOwner();
    const web = await createInbox(owner);
    const line = await createInbox(owner, { channelType: "line" });
    const telegram = await createInbox(owner, { channelType: "telegram" });
    const onWeb = await createContact(owner, { inboxes: [{ id: web.id }] });
    const onLine = await createContact(owner, { inboxes: [{ id: line.id }] });
    const onBoth = await createContact(owner, { inboxes: [{ id: web.id }, { id: telegram.id }] });
    await createContact(owner);
    const list = lister(owner);
    expect(ids(await list(`?inboxes=${web.id},${line.id}`))).toEqual([onBoth.id, onLine.id, onWeb.id]);
    expect(ids(await list(`?inbox=${line.id}`))).toEqual([onLine.id]);
    expect(ids(await list(`?inbox=${line.id}&inboxes=${telegram.id}`))).toEqual([onBoth.id]);
    expect(ids(await list(`?inboxes=${telegram.id}&inboxes=${line.id}`))).toEqual([onBoth.id, onLine.id]);
    expect(ids(await list("?channels=line,telegram"))).toEqual([onBoth.id, onLine.id]);
    expect(ids(await list("?channels=web"))).toEqual([onBoth.id, onWeb.id]);
    expect((await list("?channels=viber")).count).toBe(0);
    // An empty list is no filter.
    expect((await list("?inboxes=&channels=&tags=")).count).toBe(4);
    expect(ids(await list(`?inboxes=&inbox=${line.id}`))).toEqual([onLine.id]);
  });

  it("another organization's inbox filters to nothing", async () => {
    const owner = await seedOwner();
    const stranger = await seedOwner();
    const theirs = await createInbox(stranger);
    await createContact(stranger, { inboxes: [{ id: theirs.id }] });
    await createContact(owner);
    expect((await lister(owner)(`?inboxes=${theirs.id}`)).count).toBe(0);
  });

  it("filters by tag names or ids", async () => {
    const owner = await seedOwner();
    const vip = await createContact(owner, { tags: ["vip"] });
    const both = await createContact(owner, { tags: ["vip", "taipei"] });
    const taipei = await createContact(owner, { tags: ["taipei"] });
    await createContact(owner);
    const list = lister(owner);
    expect(ids(await list("?tags=vip"))).toEqual([both.id, vip.id]);
    expect(ids(await list("?tags=vip,taipei"))).toEqual([taipei.id, both.id, vip.id]);
    const taipeiTag = taipei.tags[0].id;
    expect(ids(await list(`?tags=${taipeiTag}`))).toEqual([taipei.id, both.id]);
    expect(ids(await list("?tags=vip&channels=web"))).toEqual([]);
    // Another organization's tag of the same name does not leak in.
    await createContact(await seedOwner(), { tags: ["vip"] });
    expect((await list("?tags=vip")).count).toBe(2);
  });

  it("query matches part of the name or the source id", async () => {
    const owner = await seedOwner();
    const ada = await createContact(owner, { name: "Ada Lovelace", sourceId: "U-1" });
    const line = await createContact(owner, { name: "Grace", sourceId: "Uab12cd" });
    await createContact(owner, { name: "100% Real" });
    const list = lister(owner);
    expect(ids(await list("?query=lovelace"))).toEqual([ada.id]);
    expect(ids(await list("?query=Uab12cd"))).toEqual([line.id]);
    expect(ids(await list("?query=ab12"))).toEqual([line.id]);
    expect((await list("?query=_")).count).toBe(0);
    expect(ids(await list("?query=100%25"))).toHaveLength(1);
    // One word longer than the 50 bytes D1 allows a LIKE pattern: a pasted id or a Chinese sentence.
    const long = await createContact(owner, { name: "我想查询一下我的订单现在的物流状态", sourceId: "x".repeat(60) });
    expect(ids(await list(`?query=${encodeURIComponent("我想查询一下我的订单现在的物流状态")}`))).toEqual([long.id]);
    expect(ids(await list(`?query=${"X".repeat(60)}`))).toEqual([long.id]);
  });

  it("search is full text over name, e-mail, phone, source id and metadata values, Chinese included", async () => {
    const owner = await seedOwner();
    const ming = await createContact(owner, {
      name: "王小明同學",
      metadata: { city: "台北市", vip: true, n: 42, nested: { note: "prefers LINE" } },
    });
    const ada = await createContact(owner, {
      name: "Ada",
      email: "ada@lovelace.example",
      phoneNumber: "+44 20 7946 0958",
      sourceId: "Ux9f3c",
    });
    await createContact(await seedOwner(), { name: "王小明同學" });
    const list = lister(owner);
    const cases: [string, string[]][] = [
      ["小明同", [ming.id]], // 3 characters: the trigram index
      ["小明", [ming.id]], // 2 characters: LIKE fallback
      ["王", [ming.id]],
      ["台北", [ming.id]], // metadata value, short
      ["台北市", [ming.id]], // metadata value, indexed
      ["line", [ming.id]], // nested metadata value, case-insensitive
      ["true", [ming.id]],
      ["42", [ming.id]],
      ["LOVELACE", [ada.id]],
      ["7946", [ada.id]],
      ["x9f3", [ada.id]],
      ["ada 0958", [ada.id]], // every word must match
      ["ada 小明", []],
      ["city", []], // metadata keys are not searched
      ["nobody", []],
    ];
    for (const [term, expected] of cases) expect(ids(await list(`?search=${q(term)}`)), term).toEqual(expected);
  });

  it("query, search and tags find a name whatever Unicode form it was typed or stored in (NFC, NFD)", async () => {
    const owner = await seedOwner();
    const typed = await createContact(owner, { name: "Zoë Café", tags: ["Crème"] });
    const old = await createContact(owner, { name: "Renée Noël", tags: ["Forêt"] });
    // Stored before names were kept in NFC, as a Mac's input gave them: decomposed (the search index follows).
    const plane = await data(owner.organizationId);
    await plane
      .update(contacts)
      .set({ name: "Renée Noël".normalize("NFD") })
      .where(eq(contacts.id, old.id));
    await plane
      .update(tags)
      .set({ name: "Forêt".normalize("NFD") })
      .where(eq(tags.id, old.tags[0].id));
    const list = lister(owner);
    const nfd = (text: string) => q(text.normalize("NFD"));
    const nfc = (text: string) => q(text.normalize("NFC"));
    const cases: [string, string[]][] = [
      [`query=${nfd("café")}`, [typed.id]],
      [`query=${nfc("noël")}`, [old.id]],
      [`search=${nfd("café")}`, [typed.id]], // the trigram index
      [`search=${nfc("noël")}`, [old.id]],
      [`search=${nfc("ë")}`, [old.id, typed.id]], // shorter: by substring
      // 2 characters composed, 3 decomposed: the index cannot find the composed form, the substring can.
      [`search=${nfd("oë")}`, [old.id, typed.id]],
      [`search=${nfc("oë")}`, [old.id, typed.id]],
      [`tags=${nfd("Crème")}`, [typed.id]],
      [`tags=${nfc("Forêt")}`, [old.id]],
      [`tags=${nfc("Forêt")},${nfd("Crème")}`, [old.id, typed.id]],
    ];
    for (const [filter, expected] of cases)
      expect(ids(await list(`?${filter}`)), decodeURIComponent(filter)).toEqual(expected);
  });

  it("search follows updates and deletes, and treats query syntax as text", async () => {
    const owner = await seedOwner();
    const contact = await createContact(owner, { name: "Alpha Centauri" });
    const list = lister(owner);
    expect(ids(await list("?search=centauri"))).toEqual([contact.id]);
    expect(
      (await owner.fetch("PATCH", `/contacts/${contact.id}/`, { name: "Proxima", metadata: { star: "Barnard" } }))
        .status,
    ).toBe(200);
    expect((await list("?search=centauri")).count).toBe(0);
    expect(ids(await list("?search=proxima"))).toEqual([contact.id]);
    expect(ids(await list("?search=barnard"))).toEqual([contact.id]);
    for (const term of ['"', 'pro"xi', "prox*", "NEAR(a b)", "a OR b", "%", "'; drop", "-x", "^pr"]) {
      expect((await owner.fetch("GET", `/contacts/?search=${q(term)}`)).status, term).toBe(200);
    }
    const indexed = async () =>
      (
        await (
          await data(owner.organizationId)
        ).all<{ n: number }>(sql`SELECT count(*) AS n FROM contacts_fts WHERE contact_id = ${contact.id}`)
      )[0].n;
    expect(await indexed()).toBe(1);
    expect((await owner.fetch("DELETE", `/contacts/${contact.id}/`)).status).toBe(204);
    expect(await indexed()).toBe(0);
  });

  it("pages with pageSize", async () => {
    const owner = await seedOwner();
    for (let i = 0; i < 3; i++) await createContact(owner);
    const page = await lister(owner)("?page_size=2&page=2");
    expect(page).toMatchObject({ count: 3, next: null });
    expect(page.results).toHaveLength(1);
    await expectNotFound(await owner.fetch("GET", "/contacts/?pageSize=2&page=3"));
  });

  it("400 naming the bad filter", async () => {
    const owner = await seedOwner();
    const many = Array.from({ length: 101 }, (_, i) => `tag${i}`).join(",");
    const refusals: [query: string, field: string, said: string | null][] = [
      ["?inboxes=nope", "inboxes", "Must be comma-separated UUIDs."],
      ["?inbox=nope", "inbox", null],
      ["?channels=web,fax,pager", "channels", "Unknown channel type: fax, pager."],
      [`?tags=${many}`, "tags", "At most 100 values."],
    ];
    for (const [query, field, said] of refusals) {
      const err = await expectError(await owner.fetch("GET", `/contacts/${query}`), 400, "invalid");
      expect(Object.keys(err.errors!), query).toEqual([field]);
      if (said) expect(err.errors![field], query).toEqual([said]);
    }
  });

  it("403 without contact.view; 200 with it", async () => {
    const owner = await seedOwner();
    await createContact(owner);
    await expectDenied(await (await seedMember(owner, ["inbox.view"])).fetch("GET", "/contacts/"));
    const viewer = await seedMember(owner, ["contact.view"]);
    expect((await bodyOf<"GET /contacts/">(await viewer.fetch("GET", "/contacts/"))).count).toBe(1);
  });

  it("401 without a key", async () => {
    await expectError(await call("GET", "/api/contacts/"), 401, "not_authenticated");
  });
});
