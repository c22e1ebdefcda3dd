import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { NO_SUCH_ID, PREFIXES, call, expectError, seedOwner } from "../../harness";
import { expectReadableWith, expectUnknownIds } from "../../support/refusals";
import { createInbox } from "../inboxes/fixtures";
import { client, pub, seedWebChat, startSession } from "../widget/fixtures";
import { bodyOf } from "../../support/api";

const FLAGS_OFF = [
  "enableFileUpload",
  "enableDisplayCitations",
  "enableDisplayToolResults",
  "enableShareConversation",
  "enableLocation",
  "enableThemeModeToggle",
  "enableDownloadCitations",
  "enableDisplayChatbotAvatar",
  "enableDisplayChatbotName",
] as const;

describe("GET /web-chats/{id}/", () => {
  it.each(PREFIXES)("returns every field of the spec with its default (%s)", async (prefix) => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner, { name: "Site" });
    const res = await owner.fetch("GET", `/web-chats/${inbox.channel!.id}/`, undefined, { prefix });
    expect(res.status).toBe(200);
    const body = await bodyOf<"GET /web-chats/{id}/">(res);
    expect(body).toMatchObject({
      id: inbox.channel!.id,
      name: "Site",
      avatar: null,
      logo: null,
      cover: null,
      poweredByLogo: null,
      description: null,
      backUrl: null,
      isActive: true,
      enableSpeech: false,
      enableShowPoweredBy: true,
      // New web chats have no pre-chat form (docs/decisions.md, "Widget defaults").
      enableAnonymous: true,
      accessType: "public",
      defaultThemeMode: null,
      customDomain: null,
      inbox: { id: inbox.id, name: "Site" },
    });
    for (const flag of FLAGS_OFF) expect(body[flag], flag).toBe(false);
    expect(typeof body.createdAt).toBe("string");
    expect(typeof body.updatedAt).toBe("string");
  });

  it("a web chat stored before the default changed, without the setting, keeps its pre-chat form", async () => {
    const owner = await seedOwner();
    const { id } = await seedWebChat(owner, {});
    await env.DB.prepare("UPDATE web_chats SET settings = json_remove(settings, '$.enableAnonymous') WHERE id = ?")
      .bind(id)
      .run();
    const body = await bodyOf<"GET /web-chats/{id}/">(await owner.fetch("GET", `/web-chats/${id}/`));
    expect(body.enableAnonymous).toBe(false);
    // The widget asks such a visitor who they are (400), as before.
    await expectError(await client().post(pub(id, "session/"), {}), 400, "invalid");
    // A new one lets the visitor in at once.
    const fresh = await seedWebChat(owner, {});
    expect((await startSession(fresh.id)).contact.identified).toBe(false);
  });

  it("404 for another organization's web chat, an unknown or a malformed id", async () => {
    const owner = await seedOwner();
    const theirs = await createInbox(await seedOwner());
    await expectUnknownIds(owner, "/web-chats/", theirs.channel!.id);
  });

  it("403 without inbox.view; 200 with it", async () => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner);
    await expectReadableWith(owner, `/web-chats/${inbox.channel!.id}/`, { denied: [], readers: ["inbox.view"] });
  });

  it("401 without a key", async () => {
    await expectError(await call("GET", `/api/web-chats/${NO_SUCH_ID}/`), 401, "not_authenticated");
  });
});
