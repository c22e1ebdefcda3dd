import { describe, expect, it } from "vitest";
import { expectError, seedOwner } from "../../harness";
import { client, pub, seedWebChat } from "./fixtures";

describe("public widget rate limits", () => {
  it("limits each client per web chat, with Retry-After", async () => {
    const owner = await seedOwner();
    const chat = await seedWebChat(owner);
    const settings = { WIDGET_RATE_LIMIT_PER_MINUTE: "3" };
    const me = client();
    for (let i = 0; i < 3; i++)
      expect((await me.get(pub(chat.id, "config/"), undefined, {}, settings)).status).toBe(200);
    const res = await me.get(pub(chat.id, "config/"), undefined, {}, settings);
    await expectError(res.clone(), 429, "throttled");
    expect(Number(res.headers.get("Retry-After"))).toBeGreaterThan(0);
    // Another client of the same web chat is not affected.
    expect((await client().get(pub(chat.id, "config/"), undefined, {}, settings)).status).toBe(200);
  });

  it("limits a web chat across clients", async () => {
    const owner = await seedOwner();
    const chat = await seedWebChat(owner);
    const settings = { WIDGET_WEB_CHAT_RATE_LIMIT_PER_MINUTE: "4" };
    for (let i = 0; i < 4; i++)
      expect((await client().get(pub(chat.id, "config/"), undefined, {}, settings)).status).toBe(200);
    await expectError(await client().get(pub(chat.id, "config/"), undefined, {}, settings), 429, "throttled");
    // Another web chat is not affected.
    const other = await seedWebChat(owner);
    expect((await client().get(pub(other.id, "config/"), undefined, {}, settings)).status).toBe(200);
  });
});
