// Outbound failures in words a person can act on (docs/decisions.md, "Outbound errors a person can
// act on"): a real name that does not resolve and a loopback port where nothing listens, through the
// worker, its queue and its delivery records; and the address guard naming the setting that lifts it.
import { describe, expect, it } from "vitest";
import { PREFIXES, call, expectError, seedMember, seedOwner, waitFor } from "../../harness";
import { createChatbot } from "../../fixtures/chatbots";
import { createWebhook, storedWebhooks, webhooksPath } from "./fixtures";
import { bodyOf } from "../../support/api";

/** `.invalid` never resolves (RFC 6761). */
const UNRESOLVABLE = "http://no-such-host.invalid/hook";
/** vitest.config.ts allows 127.0.0.1:19 (chargen), where nothing listens. */
const CLOSED_PORT = "http://127.0.0.1:19/hook";

describe("webhook delivery errors", () => {
  it("a host that does not resolve and a closed port are recorded as such", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const inbox = bot.defaultInbox!.id;
    const unresolvable = await createWebhook(owner, inbox, { name: "Nowhere", url: UNRESOLVABLE });
    const closed = await createWebhook(owner, inbox, { name: "Closed", url: CLOSED_PORT });
    const res = await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, { message: { content: "Hello!" } });
    expect(res.status, await res.clone().text()).toBe(200);
    const failures = async (hookId: string) => {
      const page = await bodyOf<"GET /inboxes/{inboxId}/webhooks/{webhookId}/records/">(
        await owner.fetch("GET", `${webhooksPath(inbox, hookId)}records/?status=failure`),
      );
      return page.results;
    };
    const [nowhere] = await waitFor(
      () => failures(unresolvable.id),
      (r) => r.length > 0,
      15_000,
    );
    expect(nowhere.error).toBe("could not resolve host no-such-host.invalid");
    const [refused] = await waitFor(
      () => failures(closed.id),
      (r) => r.length > 0,
      15_000,
    );
    expect(refused.error).toBe("connection refused (127.0.0.1:19)");
  });

  it.each(PREFIXES)("a test send answers the same words (%s)", async (prefix) => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const inbox = bot.defaultInbox!.id;
    for (const [url, error] of [
      [UNRESOLVABLE, "could not resolve host no-such-host.invalid"],
      [CLOSED_PORT, "connection refused (127.0.0.1:19)"],
    ]) {
      const hook = await createWebhook(owner, inbox, { url });
      const sent = await owner.fetch("POST", `${webhooksPath(inbox, hook.id)}send-test/`, undefined, { prefix });
      expect(sent.status).toBe(200);
      expect(await sent.json()).toMatchObject({ ok: false, statusCode: null, error });
    }
  });

  it("400 naming OUTBOUND_ALLOWED_HOSTS for a loopback or private address, and nothing is stored", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const inbox = bot.defaultInbox!.id;
    const loopback = await owner.fetch("POST", webhooksPath(inbox), {
      name: "Local",
      direction: "outgoing",
      url: "http://127.0.0.1:10/hook",
    });
    const body = await expectError(loopback, 400, "invalid");
    expect(body.detail).toContain(
      "Loopback addresses are refused unless OUTBOUND_ALLOWED_HOSTS names them (127.0.0.1:10)",
    );
    const lan = await expectError(
      await owner.fetch("POST", webhooksPath(inbox), {
        name: "LAN",
        direction: "outgoing",
        url: "http://192.168.1.20/hook",
      }),
      400,
      "invalid",
    );
    expect(lan.detail).toContain(
      "Private network addresses are refused unless OUTBOUND_ALLOWED_HOSTS names them (192.168.1.20:80)",
    );
    expect(await storedWebhooks(inbox)).toEqual([]);
  });

  it("403 for a member without webhook.manage, 404 for another organization's webhook, 401 anonymous", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const inbox = bot.defaultInbox!.id;
    const hook = await createWebhook(owner, inbox, { url: UNRESOLVABLE });
    const path = `${webhooksPath(inbox, hook.id)}send-test/`;
    await expectError(await (await seedMember(owner, ["inbox.view"])).fetch("POST", path), 403, "permission_denied");
    await expectError(await (await seedOwner()).fetch("POST", path), 404, "not_found");
    await expectError(await call("POST", `/api/v1${path}`), 401, "not_authenticated");
  });
});
