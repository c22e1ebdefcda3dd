import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { chatbots, contacts } from "../../src/db/schema";
import { jsonNestsDeeperThan } from "../../src/lib/case";
import { PREFIXES, call, data, db, expectError, seedOwner } from "../harness";
import { LOCAL_LLM } from "../fixtures/chatbots";
import { bodyOf } from "../support/api";

const nested = (depth: number, inner = "1") => "[".repeat(depth) + inner + "]".repeat(depth);

describe("hostile input is a 4xx, never a 500 (CONTRACT sections 2 and 8)", () => {
  it("the depth scan counts only brackets outside strings", () => {
    expect(jsonNestsDeeperThan(nested(64))).toBe(false);
    expect(jsonNestsDeeperThan(nested(65))).toBe(true);
    expect(jsonNestsDeeperThan(JSON.stringify({ a: "[[[[[[[[".repeat(100) }))).toBe(false);
    expect(jsonNestsDeeperThan(JSON.stringify({ a: `\\"[[[${"[".repeat(100)}` }))).toBe(false);
    expect(jsonNestsDeeperThan(`{"a":${nested(64)}}`)).toBe(true);
  });

  it.each(PREFIXES)(
    "a body nested thousands of levels deep is 400 on JSON routes, and nothing is written (%s)",
    async (prefix) => {
      const owner = await seedOwner();
      for (const [method, path] of [
        ["POST", "/chatbots/"],
        ["POST", "/contacts/"],
        ["PUT", "/users/current/"],
        ["POST", "/chat/completions"],
      ] as const) {
        const res = await owner.fetch(method, path, nested(5000), {
          prefix,
          headers: { "Content-Type": "application/json" },
        });
        expect(res.status, `${method} ${path}`).toBe(400);
        expect(await res.text()).toContain("64 levels");
      }
      const deepMetadata = { name: "Deep", metadata: JSON.parse(`{"a":${nested(200, "{}")}}`) };
      await expectError(await owner.fetch("POST", "/contacts/", deepMetadata, { prefix }), 400, "invalid");
      const plane = await data(owner.organizationId);
      expect(await plane.select().from(contacts).where(eq(contacts.organizationId, owner.organizationId))).toHaveLength(
        0,
      );
      expect(await db().select().from(chatbots).where(eq(chatbots.organizationId, owner.organizationId))).toHaveLength(
        0,
      );
    },
  );

  it("a body within 64 levels still works", async () => {
    const owner = await seedOwner();
    const res = await owner.fetch("POST", "/contacts/", { name: "Fine", metadata: { a: JSON.parse(nested(60)) } });
    expect(res.status, await res.clone().text()).toBe(201);
  });

  it("a __proto__ key cannot give the body a prototype", async () => {
    const owner = await seedOwner();
    const text =
      `{"name": "Proto", "large_language_model": "${LOCAL_LLM}", "__proto__": {"replyMode": "agent", "name": ` +
      `"Injected"}}`;
    const res = await owner.fetch("POST", "/chatbots/", text, { headers: { "Content-Type": "application/json" } });
    expect(res.status, await res.clone().text()).toBe(201);
    expect(await res.json()).toMatchObject({ name: "Proto", replyMode: "normal" });
  });

  it("invalid UTF-8, duplicate keys and bodies of the wrong shape are 400", async () => {
    const owner = await seedOwner();
    // The bytes of {"name":"\xff\xfe"}.
    const invalidUtf8 = new Uint8Array([0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]);
    const utf = await SELF.fetch("http://localhost/api/v1/chatbots/", {
      method: "POST",
      body: invalidUtf8,
      headers: { Authorization: `Api-Key ${owner.key}`, "Content-Type": "application/json" },
    });
    await expectError(utf, 400, "parse_error");
    const huge = await owner.fetch(
      "POST",
      "/large-language-models/",
      '{"name": "m", "provider": "local", "modelName": "x", "temperature": 1e999}',
      { headers: { "Content-Type": "application/json" } },
    );
    expect((await expectError(huge, 400, "parse_error")).detail).toContain("out of range");
    for (const text of ['{"name": 1, "name": {}}', "[]", '"text"', "null", "12e999999", "{"]) {
      const res = await owner.fetch("POST", "/chatbots/", text, { headers: { "Content-Type": "application/json" } });
      expect(res.status, text).toBe(400);
    }
    expect(await db().select().from(chatbots).where(eq(chatbots.organizationId, owner.organizationId))).toHaveLength(0);
  });

  it("half of a surrogate pair (a \\ud83d escape alone) is kept as one U+FFFD, not as three", async () => {
    const owner = await seedOwner();
    const post = (text: string) =>
      owner.fetch("POST", "/contacts/", text, { headers: { "Content-Type": "application/json" } });
    const cases: [string, string][] = [
      ["Ada \\ud83d", "Ada \uFFFD"],
      ["a\\udfffb", "a\uFFFDb"],
      ["\\udc00\\ud83d", "\uFFFD\uFFFD"],
      // A whole pair is a character, and an escaped backslash before a "u" no escape.
      ["Ada \\ud83d\\ude00", "Ada \u{1F600}"],
      ["C:\\\\ud83d", "C:\\ud83d"],
    ];
    for (const [sent, kept] of cases) {
      const res = await post(`{"name": "${sent}", "metadata": {"note\\ud83d": "x\\ud83d"}}`);
      expect(res.status, await res.clone().text()).toBe(201);
      const contact = await bodyOf<"POST /contacts/">(res);
      expect(contact.name, sent).toBe(kept);
      expect(contact.metadata).toEqual({ "note\uFFFD": "x\uFFFD" });
      const read = await owner.fetch("GET", `/contacts/${contact.id}/`);
      expect((await bodyOf<"GET /contacts/{id}/">(read)).name, sent).toBe(kept);
    }
  });

  it("a query parameter holding a NUL character is 400, naming it (a search for it matched every row)", async () => {
    const owner = await seedOwner();
    await owner.fetch("POST", "/canned-responses/", { shortCode: "hello", content: "Hello there" });
    const all = await owner.fetch("GET", "/canned-responses/?search=hel");
    expect(all.status, await all.clone().text()).toBe(200);
    for (const [path, field] of [
      ["/canned-responses/?search=%00", "search"],
      ["/canned-responses/?search=hel%00", "search"],
      ["/conversations/?keyword=%00", "keyword"],
      ["/conversations/?pageSize=10&label=%00", "label"],
      ["/contacts/?search=a&search=%00", "search"],
    ]) {
      const refused = await expectError(await owner.fetch("GET", path), 400, "invalid");
      expect(refused.errors?.[field], path).toEqual(["Contains a NUL character (%00)."]);
    }
  });

  it("a public file path that cannot name an object is 404", async () => {
    for (const path of ["x".repeat(3000), `${"a/".repeat(600)}b.png`, "%FF%FE.png", "..%2F..%2Fsecret"]) {
      await expectError(await call("GET", `/api/v1/files/public/${path}`), 404, "not_found");
    }
  });
});
