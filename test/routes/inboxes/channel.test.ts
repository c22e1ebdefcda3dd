import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { NO_SUCH_ID, PREFIXES, call, expectError, seedMember, seedOwner, unique, type Actor } from "../../harness";
import { expectDenied, expectNotFound } from "../../support/refusals";
import { decryptSecret } from "../../../src/lib/crypto";
import { standIn } from "../../channels/support";
import { bodyOf } from "../../support/api";

const telegram = standIn("telegram");
const newInbox = async (actor: Actor, channelType = "telegram") => {
  const res = await actor.fetch("POST", "/inboxes/", { name: unique(channelType), channelType });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await bodyOf<"POST /inboxes/">(res)).id;
};
const rowOf = (inboxId: string) =>
  env.DB.prepare("select * from inbox_channels where inbox_id = ?").bind(inboxId).first<Record<string, unknown>>();

describe("GET/PUT /inboxes/{id}/channel/", () => {
  it.each(PREFIXES)("saves credentials sealed and reads them masked under %s", async (prefix) => {
    const owner = await seedOwner();
    const inbox = await newInbox(owner, "line");
    const empty = await owner.fetch("GET", `/inboxes/${inbox}/channel/`, undefined, { prefix });
    expect(empty.status).toBe(200);
    expect(await empty.json()).toMatchObject({
      channelType: "line",
      status: "not_connected",
      credentials: { channelId: null, channelSecret: null, channelAccessToken: null },
      verifyToken: null,
      lastEventAt: null,
    });
    const res = await owner.fetch(
      "PUT",
      `/inboxes/${inbox}/channel/`,
      {
        channelId: "1656789012",
        channelSecret: "8c4f1e1a2b3c4d5e6f708192a3b4c5d6",
        channelAccessToken: "long-lived-token-abcdefgh",
      },
      { prefix },
    );
    expect(res.status, await res.clone().text()).toBe(200);
    const record = await bodyOf<"PUT /inboxes/{id}/channel/">(res);
    expect(record.credentials).toEqual({
      channelId: "1656789012",
      channelSecret: "…c5d6",
      channelAccessToken: "…efgh",
    });
    expect(record.webhookUrl).toMatch(new RegExp(`/channels/line/${inbox}$`));
    const row = await rowOf(inbox);
    expect(String(row?.secrets_sealed)).toMatch(/^v1:/);
    expect(String(row?.secrets_sealed)).not.toContain("long-lived");
    expect(JSON.parse(await decryptSecret(String(row!.secrets_sealed), env.ENCRYPTION_KEY))).toEqual({
      channelSecret: "8c4f1e1a2b3c4d5e6f708192a3b4c5d6",
      channelAccessToken: "long-lived-token-abcdefgh",
    });

    // A field left out keeps its value; "" clears it.
    await owner.fetch("PUT", `/inboxes/${inbox}/channel/`, { channel_id: "" }, { prefix });
    expect(
      (await bodyOf<"GET /inboxes/{id}/channel/">(await owner.fetch("GET", `/inboxes/${inbox}/channel/`))).credentials,
    ).toEqual({ channelId: null, channelSecret: "…c5d6", channelAccessToken: "…efgh" });
  });

  it("a credential pasted in quotes is saved without them; one with a space inside is 400, unsaved", async () => {
    const owner = await seedOwner();
    const inbox = await newInbox(owner, "slack");
    const res = await owner.fetch("PUT", `/inboxes/${inbox}/channel/`, {
      botToken: ' "xoxb-1234-5678-abcdefgh" ',
      signingSecret: "\u201c8f14e45fceea167a5a36dedd4bea2543\u201d",
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await bodyOf<"PUT /inboxes/{id}/channel/">(res)).credentials).toEqual({
      botToken: "…efgh",
      signingSecret: "…2543",
    });
    const row = await rowOf(inbox);
    expect(JSON.parse(await decryptSecret(String(row!.secrets_sealed), env.ENCRYPTION_KEY))).toEqual({
      botToken: "xoxb-1234-5678-abcdefgh",
      signingSecret: "8f14e45fceea167a5a36dedd4bea2543",
    });

    const other = await newInbox(owner, "slack");
    const spaced = await expectError(
      await owner.fetch("PUT", `/inboxes/${other}/channel/`, { botToken: "Bearer xoxb-1234-5678-abcdefgh" }),
      400,
      "invalid",
    );
    expect(spaced.errors).toEqual({
      botToken: ["Has a space inside: paste the value alone, as the platform shows it (a token has no spaces)."],
    });
    expect(await rowOf(other)).toBeNull();
    // A sender name is words: its spaces and quotes are its own.
    const email = await newInbox(owner, "email");
    const named = await owner.fetch("PUT", `/inboxes/${email}/channel/`, { fromName: '"Acme" Support' });
    expect((await bodyOf<"PUT /inboxes/{id}/channel/">(named)).credentials.fromName).toBe('"Acme" Support');
  });

  it("a Meta inbox shows its verify token", async () => {
    const owner = await seedOwner();
    const inbox = await newInbox(owner, "messenger");
    const record = await bodyOf<"PUT /inboxes/{id}/channel/">(
      await owner.fetch("PUT", `/inboxes/${inbox}/channel/`, { pageId: "104729" }),
    );
    expect(record.verifyToken).toMatch(/^[A-Za-z0-9]{32}$/);
  });

  it("400 for another platform's field, an unknown field, a bad address or a web inbox; nothing written", async () => {
    const owner = await seedOwner();
    const inbox = await newInbox(owner);
    const other = await expectError(
      await owner.fetch("PUT", `/inboxes/${inbox}/channel/`, { channelSecret: "x" }),
      400,
      "invalid",
    );
    expect(other.detail).toBe("Invalid request. channelSecret: Not a telegram setting; telegram takes botToken.");
    await expectError(await owner.fetch("PUT", `/inboxes/${inbox}/channel/`, { botTokn: "x" }), 400);
    await expectError(await owner.fetch("PUT", `/inboxes/${inbox}/channel/`, { botToken: 42 }), 400);
    expect(await rowOf(inbox)).toBeNull();
    const email = await newInbox(owner, "email");
    await expectError(await owner.fetch("PUT", `/inboxes/${email}/channel/`, { address: "not an address" }), 400);
    expect(await rowOf(email)).toBeNull();
    const web = await newInbox(owner, "web");
    await expectError(await owner.fetch("GET", `/inboxes/${web}/channel/`), 400, "not_a_messaging_inbox");
    await expectError(
      await owner.fetch("PUT", `/inboxes/${web}/channel/`, { botToken: "x" }),
      400,
      "not_a_messaging_inbox",
    );
    const teams = await newInbox(owner, "teams");
    await expectError(await owner.fetch("PUT", `/inboxes/${teams}/channel/`, {}), 400, "channel_not_supported");
    await expectError(await owner.fetch("POST", `/inboxes/${teams}/channel/connect/`), 400, "channel_not_supported");
  });

  it("404 for another organization's inbox, an unknown or a malformed id", async () => {
    const owner = await seedOwner();
    const theirs = await newInbox(await seedOwner());
    for (const [method, path] of [
      ["GET", ""],
      ["PUT", ""],
      ["POST", "connect/"],
    ] as const) {
      await expectError(
        await owner.fetch(
          method,
          `/inboxes/${theirs}/channel/${path}`,
          method === "PUT" ? { botToken: "1:x" } : undefined,
        ),
        404,
        "not_found",
      );
      await expectNotFound(
        await owner.fetch(method, `/inboxes/${NO_SUCH_ID}/channel/${path}`, method === "PUT" ? {} : undefined),
      );
      await expectNotFound(
        await owner.fetch(method, `/inboxes/123/channel/${path}`, method === "PUT" ? {} : undefined),
      );
    }
    expect(await rowOf(theirs)).toBeNull();
  });

  it("403 without inbox.view to read, inbox.manage to save or connect", async () => {
    const owner = await seedOwner();
    const inbox = await newInbox(owner);
    const viewer = await seedMember(owner, ["inbox.view"]);
    expect((await viewer.fetch("GET", `/inboxes/${inbox}/channel/`)).status).toBe(200);
    await expectDenied(await viewer.fetch("PUT", `/inboxes/${inbox}/channel/`, { botToken: "1:x" }));
    await expectDenied(await viewer.fetch("POST", `/inboxes/${inbox}/channel/connect/`));
    await expectDenied(await (await seedMember(owner, ["chatbot.view"])).fetch("GET", `/inboxes/${inbox}/channel/`));
    expect(await rowOf(inbox)).toBeNull();
  });

  it("401 without a key", async () => {
    await expectError(await call("GET", `/api/v1/inboxes/${NO_SUCH_ID}/channel/`), 401, "not_authenticated");
    await expectError(await call("PUT", `/api/v1/inboxes/${NO_SUCH_ID}/channel/`, {}), 401, "not_authenticated");
    await expectError(await call("POST", `/api/v1/inboxes/${NO_SUCH_ID}/channel/connect/`), 401, "not_authenticated");
  });
});

describe("POST /inboxes/{id}/channel/connect/", () => {
  it("asks the platform, and a changed credential makes the channel not_connected again", async () => {
    const owner = await seedOwner();
    const inbox = await newInbox(owner);
    await expectError(await owner.fetch("POST", `/inboxes/${inbox}/channel/connect/`), 400, "channel_not_configured");
    const token = `7:${unique("tok").replace(/[^A-Za-z0-9]/g, "")}`;
    await owner.fetch("PUT", `/inboxes/${inbox}/channel/`, { botToken: token });
    const res = await owner.fetch("POST", `/inboxes/${inbox}/channel/connect/`);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toMatchObject({
      status: "connected",
      detail: expect.stringMatching(
        /^Connected to @acme_\w+_bot; Telegram sends its updates to http.*\/channels\/telegram\//,
      ),
    });
    expect((await telegram.requests(token)).map((r) => r.path)).toEqual([
      `/bot${token}/getMe`,
      `/bot${token}/setWebhook`,
    ]);
    // The same token again changes nothing; another one must be connected.
    expect(await (await owner.fetch("PUT", `/inboxes/${inbox}/channel/`, { botToken: token })).json()).toMatchObject({
      status: "connected",
    });
    expect(
      await (await owner.fetch("PUT", `/inboxes/${inbox}/channel/`, { botToken: `${token}2` })).json(),
    ).toMatchObject({ status: "not_connected" });
  });

  it("an unreachable platform origin is named", async () => {
    const owner = await seedOwner();
    const inbox = await newInbox(owner);
    await owner.fetch("PUT", `/inboxes/${inbox}/channel/`, { botToken: "1:abc" });
    const body = await expectError(
      await owner.fetch("POST", `/inboxes/${inbox}/channel/connect/`, undefined, {
        settings: { TELEGRAM_API_ORIGIN: "http://127.0.0.1:19" },
      }),
      400,
      "channel_connect_failed",
    );
    expect(body.detail).toMatch(/127\.0\.0\.1:19/);
    const refused = await expectError(
      await owner.fetch("POST", `/inboxes/${inbox}/channel/connect/`, undefined, {
        settings: { TELEGRAM_API_ORIGIN: "http://10.1.2.3" },
      }),
      400,
      "channel_connect_failed",
    );
    expect(refused.detail).toMatch(/^TELEGRAM_API_ORIGIN: .*OUTBOUND_ALLOWED_HOSTS/);
  });
});

describe("POST /messages/{id}/channel-delivery/retry/", () => {
  it(
    "404 for a message without a delivery and another organization's; 403 without conversation.manage; 401 " +
      "without a key",
    async () => {
      const owner = await seedOwner();
      await expectNotFound(await owner.fetch("POST", `/messages/${NO_SUCH_ID}/channel-delivery/retry/`));
      await expectNotFound(await owner.fetch("POST", "/messages/123/channel-delivery/retry/"));
      await expectError(
        await (await seedMember(owner, ["conversation.view"])).fetch(
          "POST",
          `/messages/${NO_SUCH_ID}/channel-delivery/retry/`,
        ),
        403,
        "permission_denied",
      );
      await expectError(
        await call("POST", `/api/v1/messages/${NO_SUCH_ID}/channel-delivery/retry/`),
        401,
        "not_authenticated",
      );
    },
  );
});
