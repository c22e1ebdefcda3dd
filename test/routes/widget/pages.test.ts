import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { NO_SUCH_ID, call, expectError, seedOwner, unique, type Actor } from "../../harness";
import { seedWebChat } from "./fixtures";
import { bodyOf } from "../../support/api";

describe("full-page chat and custom domains", () => {
  it("serves /chat/{id} with a strict CSP, the name escaped", async () => {
    const owner = await seedOwner();
    const chat = await seedWebChat(owner);
    await owner.fetch("PATCH", `/web-chats/${chat.id}/`, { name: `<script>alert(1)</script>` });
    const res = await call("GET", `/chat/${chat.id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Security-Policy")).toContain("script-src 'self'");
    const html = await res.text();
    expect(html).toContain(`data-web-chat-id="${chat.id}"`);
    expect(html).not.toContain("<script>alert");
    expect((await call("GET", `/chat/${NO_SUCH_ID}`)).status).toBe(404);
  });

  it("verifies a custom domain through its TXT record, then serves the chat at / on it", async () => {
    const owner = await seedOwner();
    const chat = await seedWebChat(owner);
    const domain = `${unique("chat")}.example.com`.toLowerCase();
    const patched = await bodyOf<"PATCH /web-chats/{id}/">(
      await owner.fetch("PATCH", `/web-chats/${chat.id}/`, { customDomain: { domain } }),
    );
    expect(patched.customDomain!.status).toBe("pending");
    // Not verified yet: `/` is not its chat but the service's own front page, the console.
    const pending = await SELF.fetch("http://localhost/", { headers: { Host: domain }, redirect: "manual" });
    expect(pending.status).toBe(302);
    expect(pending.headers.get("Location")).toBe("/console/");

    const wrong = await owner.fetch("POST", `/web-chats/${chat.id}/custom-domain/verify/`, undefined, {
      settings: { DNS_STATIC_TXT: "{}" },
    });
    expect(wrong.status, await wrong.clone().text()).toBe(200);
    const failed = await bodyOf<"POST /web-chats/{id}/custom-domain/verify/">(wrong);
    expect(failed.customDomain!.status).toBe("failed");
    expect(failed.verification.recordName).toBe(`_assistant-platform-challenge.${domain}`);

    const records = JSON.stringify({
      [failed.verification.recordName]: ["unrelated", failed.verification.recordValue],
    });
    const good = await bodyOf<"POST /web-chats/{id}/custom-domain/verify/">(
      await owner.fetch("POST", `/web-chats/${chat.id}/custom-domain/verify/`, undefined, {
        settings: { DNS_STATIC_TXT: records },
      }),
    );
    expect(good.customDomain!.status).toBe("active");
    const page = await call("GET", "/", undefined, { Host: domain }, { DNS_STATIC_TXT: "" });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`data-web-chat-id="${chat.id}"`);

    const stranger = await seedOwner();
    await expectError(await stranger.fetch("POST", `/web-chats/${chat.id}/custom-domain/verify/`), 404, "not_found");
    const bare = await seedWebChat(owner);
    await expectError(await owner.fetch("POST", `/web-chats/${bare.id}/custom-domain/verify/`), 400, "invalid");
  });

  it("a claim holds the domain once verified (the TXT record decides); of two at once one wins", async () => {
    const [squatter, holder, rival] = [await seedOwner(), await seedOwner(), await seedOwner()];
    const [early, owned, late] = [await seedWebChat(squatter), await seedWebChat(holder), await seedWebChat(rival)];
    const domain = `${unique("shop")}.example.com`.toLowerCase();
    const claim = async (actor: Actor, chat: { id: string }) =>
      actor.fetch("PATCH", `/web-chats/${chat.id}/`, { customDomain: { domain } });
    expect((await claim(squatter, early)).status).toBe(200);
    // The squatter's claim, never verified, does not keep the domain from the one who can publish its record.
    const mine = await bodyOf<"PATCH /web-chats/{id}/">(await claim(holder, owned));
    const theirs = await bodyOf<"PATCH /web-chats/{id}/">(await claim(rival, late));
    // Both records published (say, the domain changed hands): two verifications at once, one wins.
    const settings = {
      DNS_STATIC_TXT: JSON.stringify({
        [`_assistant-platform-challenge.${domain}`]: [mine.customDomain!.id, theirs.customDomain!.id].map(
          (id) => `assistant-platform-verification=${id}`,
        ),
      }),
    };
    const verify = (actor: Actor, chat: { id: string }) =>
      actor.fetch("POST", `/web-chats/${chat.id}/custom-domain/verify/`, undefined, { settings });
    const answers = await Promise.all([verify(holder, owned), verify(rival, late)]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    const winner = answers[0].status === 200 ? owned : late;
    const page = await call("GET", "/", undefined, { Host: domain }, { DNS_STATIC_TXT: "" });
    expect(await page.text()).toContain(`data-web-chat-id="${winner.id}"`);
    // Now it is held: a new claim is 409; the squatter, without the record, fails.
    await expectError(await claim(squatter, await seedWebChat(squatter)), 409, "conflict");
    const failed = await bodyOf<"POST /web-chats/{id}/custom-domain/verify/">(await verify(squatter, early));
    expect(failed.customDomain!.status).toBe("failed");
  });
});
