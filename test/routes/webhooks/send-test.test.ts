import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { webhooks } from "../../../src/db/schema";
import { NO_SUCH_ID, PREFIXES, call, db, expectError, seedMember, seedOwner, unique } from "../../harness";
import { createInbox, createWebhook, storedWebhook, webhooksPath, webhooksOfTwoOrganizations } from "./fixtures";
import { bodyOf } from "../../support/api";
import { attemptsOf } from "../../queues/webhook-fixtures";
import { receivedAt } from "../../support/received";
import type { McpTestServer } from "../../support/mcp-server.mjs";

const sendTestPath = (inboxId: string, webhookId: string) => `${webhooksPath(inboxId, webhookId)}send-test/`;
const deliveriesOf = attemptsOf;

describe("POST /inboxes/{inboxId}/webhooks/{webhookId}/send-test/", () => {
  it.each(PREFIXES)(
    "pushes a test event with the webhook's settings and returns the receiver's answer; nothing is stored (%s)",
    async (prefix) => {
      const owner = await seedOwner();
      const inbox = await createInbox(owner);
      const path = `/ok/${unique("test-send")}`;
      const hook = await createWebhook(owner, inbox.id, {
        url: `${env.TEST_RECEIVER_URL}${path}`,
        method: "PUT",
        headers: { "X-Team": "support" },
        secretToken: "s3cret-token",
      });
      const res = await owner.fetch("POST", sendTestPath(inbox.id, hook.id), undefined, { prefix });
      expect(res.status, await res.clone().text()).toBe(200);
      const result = await bodyOf<"POST /inboxes/{inboxId}/webhooks/{webhookId}/send-test/">(res);
      expect(result).toMatchObject({ ok: true, statusCode: 200, response: '{"message":"ok"}', error: null });
      expect(typeof result.durationMs).toBe("number");
      const [sent] = await receivedAt(path);
      expect(sent.method).toBe("PUT");
      expect(sent.headers["x-team"]).toBe("support");
      expect(sent.headers["x-webhook-secret"]).toBe("s3cret-token");
      expect(sent.headers["webhook-id"]).toBe(result.eventId);
      expect(sent.body).toBe(result.requestBody);
      const payload = JSON.parse(sent.body);
      expect(payload).toMatchObject({
        id: result.eventId,
        type: "outgoing",
        inbox: { id: inbox.id, name: inbox.name, channel_type: "api" },
        sender: { type: "chatbot" },
        metadata: { test: true },
      });
      // Each test is a new event, so receivers deduplicating by id take every one.
      const again = await bodyOf<"POST /inboxes/{inboxId}/webhooks/{webhookId}/send-test/">(
        await owner.fetch("POST", sendTestPath(inbox.id, hook.id)),
      );
      expect(again.eventId).not.toBe(result.eventId);
      expect(await deliveriesOf(hook.id)).toEqual([]);
    },
  );

  it("a failing receiver is ok: false with its status and the reason; the webhook's health is untouched", async () => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner);
    const hook = await createWebhook(owner, inbox.id, {
      url: `${env.TEST_RECEIVER_URL}/fail/test-send`,
      direction: "incoming",
    });
    const result = await bodyOf<"POST /inboxes/{inboxId}/webhooks/{webhookId}/send-test/">(
      await owner.fetch("POST", sendTestPath(inbox.id, hook.id)),
    );
    expect(result).toMatchObject({ ok: false, statusCode: 500, error: "The receiver answered 500." });
    expect(JSON.parse(result.requestBody as string)).toMatchObject({ type: "incoming", sender: { type: "contact" } });
    expect((await storedWebhook(hook.id)).failingSince).toBeNull();
    expect(await deliveriesOf(hook.id)).toEqual([]);
  });

  it("a disabled webhook can be tested; a URL the SSRF rules refuse is reported, not fetched", async () => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner);
    const hook = await createWebhook(owner, inbox.id, {
      url: `${env.TEST_RECEIVER_URL}/ok/test-send-disabled`,
      isEnabled: false,
    });
    expect(await (await owner.fetch("POST", sendTestPath(inbox.id, hook.id))).json()).toMatchObject({
      ok: true,
      statusCode: 200,
    });
    // A stored URL the rules now refuse (the allow-list changed since it was saved).
    await db().update(webhooks).set({ url: "http://10.0.0.1/hook" }).where(eq(webhooks.id, hook.id));
    const refused = await bodyOf<"POST /inboxes/{inboxId}/webhooks/{webhookId}/send-test/">(
      await owner.fetch("POST", sendTestPath(inbox.id, hook.id)),
    );
    expect(refused).toMatchObject({ ok: false, statusCode: null, response: null });
    expect(refused.error).toMatch(/^URL refused: /);
  });

  it(
    "a redirect to another origin carries neither the secret header nor the webhook's headers, only the " +
      "signature; one within the origin carries them all",
    async () => {
      const owner = await seedOwner();
      const inbox = await createInbox(owner);
      const settings = { headers: { Authorization: "Bearer receiver-token" }, secretToken: "s3cret-token" };
      // The MCP test server is another origin on loopback (allowed in the tests) that records each request's headers.
      const elsewhere = `/moved/${unique("hook")}`;
      const away = await createWebhook(owner, inbox.id, {
        ...settings,
        url: `${env.TEST_RECEIVER_URL}/redirect/x?to=${encodeURIComponent(`${env.TEST_MCP_URL}${elsewhere}`)}`,
      });
      expect((await owner.fetch("POST", sendTestPath(inbox.id, away.id))).status).toBe(200);
      const stats = await (await fetch(`${env.TEST_MCP_URL}/stats`)).json<McpTestServer["stats"]>();
      const [moved] = stats.requests.filter((r) => r.path === elsewhere);
      expect(moved).toMatchObject({ method: "POST", authorization: null, webhookSecret: null });
      expect(moved.webhookSignature).toMatch(/^v1,/);

      const here = `/ok/${unique("hook")}`;
      const near = await createWebhook(owner, inbox.id, {
        ...settings,
        url: `${env.TEST_RECEIVER_URL}/redirect/x?to=${encodeURIComponent(`${env.TEST_RECEIVER_URL}${here}`)}`,
      });
      expect((await owner.fetch("POST", sendTestPath(inbox.id, near.id))).status).toBe(200);
      const [kept] = await receivedAt(here);
      expect(kept.headers).toMatchObject({
        authorization: "Bearer receiver-token",
        "x-webhook-secret": "s3cret-token",
      });
    },
  );

  it("a 303 (See Other) ends the push, not followed as a GET; 301, 302, 307, 308 keep method and body", async () => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner);
    const to = (path: string) => encodeURIComponent(`${env.TEST_RECEIVER_URL}${path}`);
    const redirect = (status: number, path: string) =>
      `${env.TEST_RECEIVER_URL}/redirect/x?status=${status}&to=${to(path)}`;
    const testSend = async (url: string) => {
      const hook = await createWebhook(owner, inbox.id, { url });
      const res = await owner.fetch("POST", sendTestPath(inbox.id, hook.id));
      expect(res.status, await res.clone().text()).toBe(200);
      return bodyOf<"POST /inboxes/{inboxId}/webhooks/{webhookId}/send-test/">(res);
    };
    const seeOther = `/ok/${unique("see-other")}`;
    const ended = await testSend(redirect(303, seeOther));
    expect(ended).toMatchObject({ ok: false, statusCode: 303 });
    expect(ended.error).toContain(`See Other, to ${env.TEST_RECEIVER_URL}${seeOther}`);
    expect(await receivedAt(seeOther)).toEqual([]);
    for (const status of [301, 302, 307, 308]) {
      const moved = `/ok/${unique("moved")}`;
      const result = await testSend(redirect(status, moved));
      expect(result).toMatchObject({ ok: true, statusCode: 200 });
      const [sent] = await receivedAt(moved);
      expect({ status, method: sent.method, body: sent.body }).toEqual({
        status,
        method: "POST",
        body: result.requestBody,
      });
    }
  });

  it("400 for a malformed body; nothing is sent", async () => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner);
    const path = `/ok/${unique("test-send-bad")}`;
    const hook = await createWebhook(owner, inbox.id, { url: `${env.TEST_RECEIVER_URL}${path}` });
    await expectError(
      await owner.fetch("POST", sendTestPath(inbox.id, hook.id), "{not json", {
        headers: { "Content-Type": "application/json" },
      }),
      400,
    );
    expect(await receivedAt(path)).toEqual([]);
  });

  it("403 without webhook.manage, and nothing is sent", async () => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner);
    const path = `/ok/${unique("test-send-403")}`;
    const hook = await createWebhook(owner, inbox.id, { url: `${env.TEST_RECEIVER_URL}${path}` });
    const member = await seedMember(owner, ["inbox.manage", "conversation.manage"]);
    await expectError(await member.fetch("POST", sendTestPath(inbox.id, hook.id)), 403, "permission_denied");
    expect(await receivedAt(path)).toEqual([]);
    const manager = await seedMember(owner, ["webhook.manage"]);
    expect((await manager.fetch("POST", sendTestPath(inbox.id, hook.id))).status).toBe(200);
  });

  it("404 for another organization's webhook or inbox, a webhook under another inbox, or an unknown one", async () => {
    const owner = await seedOwner();
    const { theirInbox, theirs, mine, other, hook } = await webhooksOfTwoOrganizations(owner);
    await expectError(await owner.fetch("POST", sendTestPath(theirInbox.id, theirs.id)), 404, "not_found");
    await expectError(await owner.fetch("POST", sendTestPath(mine.id, theirs.id)), 404, "not_found");
    await expectError(await owner.fetch("POST", sendTestPath(other.id, hook.id)), 404, "not_found");
    await expectError(await owner.fetch("POST", sendTestPath(mine.id, NO_SUCH_ID)), 404, "not_found");
  });

  it("401 without a key", async () => {
    await expectError(await call("POST", `/api/v1${sendTestPath(NO_SUCH_ID, NO_SUCH_ID)}`), 401, "not_authenticated");
  });
});
