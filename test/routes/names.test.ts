// Names are one line (docs/decisions.md, "Names are one line"): a control character in a name a write gives is a 400
// naming the field, and nothing is written; any other character, from any script or an emoji, is a name.
import { describe, expect, it } from "vitest";
import { expectError, seedOwner, type Actor } from "../harness";
import { bodyOf } from "../support/api";
import { client, pub, seedWebChat } from "./widget/fixtures";
import { LOCAL_LLM } from "../fixtures/chatbots";

/** A create with its name, and the list whose names it would show in. */
const writes = (owner: Actor) => [
  { path: "/contacts/", body: {}, list: "/contacts/?pageSize=100" },
  { path: "/chatbots/", body: { largeLanguageModel: LOCAL_LLM }, list: "/chatbots/?pageSize=100" },
  { path: "/labels/", body: { color: "#123456" }, list: "/labels/?pageSize=100" },
  { path: "/api-keys/", body: {}, list: "/api-keys/?pageSize=100" },
  {
    path: `/organizations/${owner.organizationId}/groups/`,
    body: { permissions: [] },
    list: `/organizations/${owner.organizationId}/groups/?pageSize=100`,
  },
];

const namesIn = async (owner: Actor, list: string) =>
  ((await (await owner.fetch("GET", list)).json()) as { results: { name: string }[] }).results.map((r) => r.name);

describe("names", () => {
  it("refuses a NUL, a line break, a tab or an escape in a name, naming the field; writes nothing", async () => {
    const owner = await seedOwner();
    for (const { path, body, list } of writes(owner)) {
      const before = await namesIn(owner, list);
      for (const name of ["Ada\u0000", "Ada\nLovelace", "Ada\tL", "\u001b[31mAda"]) {
        const error = await expectError(await owner.fetch("POST", path, { ...body, name }), 400);
        expect(error.detail, `${path} ${JSON.stringify(name)}`).toMatch(/name.*control characters/);
      }
      expect(await namesIn(owner, list), path).toEqual(before);
    }
  });

  it("refuses a name of only invisible characters (zero-width, joiners, BOM, soft hyphen), naming it", async () => {
    const owner = await seedOwner();
    const invisible = ["\u200B", "\u200C\u200D", " \u2060 ", "\uFEFF\u200B", "\u00AD"];
    const lists = [...writes(owner), { path: "/inboxes/", body: { channelType: "telegram" }, list: "/inboxes/" }];
    for (const { path, body, list } of lists) {
      const before = await namesIn(owner, list);
      for (const name of invisible) {
        const error = await expectError(await owner.fetch("POST", path, { ...body, name }), 400, "invalid");
        expect(error.errors?.name, `${path} ${JSON.stringify(name)}`).toBeDefined();
        expect(error.detail).toMatch(/name.*visible character/);
      }
      expect(await namesIn(owner, list), path).toEqual(before);
    }
    const tag = await expectError(await owner.fetch("POST", "/contacts/", { name: "Ada", tags: ["\u200B"] }), 400);
    expect(tag.detail).toMatch(/tags.*visible character/);
    const me = await owner.fetch("GET", "/users/current/");
    const { email } = (await me.json()) as { email: string };
    const profile = await expectError(await owner.fetch("PUT", "/users/current/", { name: "\u200D", email }), 400);
    expect(profile.errors?.name).toBeDefined();
    // A visible character among them is a name.
    expect((await owner.fetch("POST", "/labels/", { color: "#123456", name: "\u200BAda" })).status).toBe(201);
  });

  it("takes names in any script, with emoji and inner spaces, trimmed at the ends", async () => {
    const owner = await seedOwner();
    for (const { path, body, list } of writes(owner)) {
      const name = `王小明 Zoë 👩‍👩‍👧 ${path.length}`;
      const res = await owner.fetch("POST", path, { ...body, name: `  ${name} ` });
      expect(res.status, `${path}: ${await res.clone().text()}`).toBe(201);
      expect(await namesIn(owner, list), path).toContain(name);
    }
  });

  it("a registration's and a visitor's name are one line too", async () => {
    const registered = await client().post("/api/v1/auth/registration/", {
      email: `line-${crypto.randomUUID()}@example.com`,
      password1: "correct horse battery",
      password2: "correct horse battery",
      name: "Ada\nLovelace",
      company: "Acme",
    });
    expect((await expectError(registered, 400)).detail).toMatch(/name.*control characters/);

    const chat = await seedWebChat(await seedOwner());
    const session = await client().post(pub(chat.id, "session/"), { contact: { name: "Ada\u0000" } });
    expect((await expectError(session, 400)).detail).toMatch(/name.*control characters/);
    const named = await client().post(pub(chat.id, "session/"), { contact: { name: "Ada Lovelace" } });
    expect((await bodyOf<"POST /web-chats/{id}/public/session/">(named)).contact.name).toBe("Ada Lovelace");
  });
});
