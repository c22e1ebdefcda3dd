import { describe, expect, it } from "vitest";
import { NO_SUCH_ID, PREFIXES, call, expectError, seedMember, seedOwner } from "../../harness";
import { createInbox } from "../inboxes/fixtures";

const FLAGS_OFF = [
  "enableFileUpload",
  "enableDisplayCitations",
  "enableDisplayToolResults",
  "enableShareConversation",
  "enableLocation",
  "enableAnonymous",
  "enableThemeModeToggle",
  "enableDownloadCitations",
  "enableDisplayChatbotAvatar",
  "enableDisplayChatbotName",
];

describe("GET /web-chats/{id}/", () => {
  it.each(PREFIXES)("returns every field of the spec with its default (%s)", async (prefix) => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner, { name: "Site" });
    const res = await owner.fetch("GET", `/web-chats/${inbox.channel!.id}/`, undefined, { prefix });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
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
      accessType: "public",
      defaultThemeMode: null,
      customDomain: null,
      inbox: { id: inbox.id, name: "Site" },
    });
    for (const flag of FLAGS_OFF) expect(body[flag], flag).toBe(false);
    expect(typeof body.createdAt).toBe("string");
    expect(typeof body.updatedAt).toBe("string");
  });

  it("404 for another organization's web chat or an unknown id", async () => {
    const owner = await seedOwner();
    const theirs = await createInbox(await seedOwner());
    await expectError(await owner.fetch("GET", `/web-chats/${theirs.channel!.id}/`), 404, "not_found");
    await expectError(await owner.fetch("GET", `/web-chats/${NO_SUCH_ID}/`), 404, "not_found");
  });

  it("403 without inbox.view; 200 with it", async () => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner);
    await expectError(await (await seedMember(owner)).fetch("GET", `/web-chats/${inbox.channel!.id}/`), 403, "permission_denied");
    expect((await (await seedMember(owner, ["inbox.view"])).fetch("GET", `/web-chats/${inbox.channel!.id}/`)).status).toBe(200);
  });

  it("401 without a key", async () => {
    await expectError(await call("GET", `/api/web-chats/${NO_SUCH_ID}/`), 401, "not_authenticated");
  });
});
