import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { inboxEventsObject } from "../../../src/services/conversation/inbox-events";
import type { TypingEvent } from "../../../src/services/records/conversation-events";
import { call, seedMember, seedOwner, type Actor, type Settings } from "../../harness";
import { startedConversation } from "../../support/conversation-search";
import { liveEvents, type InboxStreamEvent } from "../../support/sse";
import { ORIGIN, signIn, withPassword } from "../sessions/fixtures";
import { bodyOf } from "../../support/api";

// The stream asks again whether its reader may read it every INBOX_STREAM_RECHECK_MS (30 s in a
// deployment); these streams are opened with a worker set to ask every 100 ms.
const FAST: Settings = { INBOX_STREAM_RECHECK_MS: "100" };

type Request = (path: string) => Promise<Response>;
const byKey =
  (actor: Actor): Request =>
  (path) =>
    actor.fetch("GET", path, undefined, { settings: FAST });

/** The organization's live inbox stream, once subscribed; `subscribers` is what its `ready` event counted. */
async function subscribe(get: Request, organizationId: string) {
  const res = await get(`/organizations/${organizationId}/conversation-events/`);
  expect(res.status, res.ok ? "" : await res.clone().text()).toBe(200);
  const events = liveEvents<InboxStreamEvent>(res);
  const ready = await events.next();
  if (ready.event !== "ready") return expect.unreachable(`the stream began with ${ready.event}, not ready`);
  return { ...events, subscribers: ready.data.subscribers };
}

/** An event for the hub to write to its streams: someone stopped typing in a conversation that does not exist. */
const TYPING_PROBE: TypingEvent = {
  conversationId: "probe",
  typing: false,
  sender: { type: "user", id: "probe", name: "probe" },
};

/** The stream's last event is `event: error` with `code`, and then it ends. */
async function expectEnded(events: Awaited<ReturnType<typeof subscribe>>, code: string) {
  const end = await events.next("error");
  expect(end.data).toMatchObject({ code, detail: expect.any(String) });
  await expect(events.next()).rejects.toThrow("the stream ended");
  return end.data.detail;
}

/** A completion in the organization; the stream sees its conversation created. */
async function someTraffic(owner: Actor, events: Awaited<ReturnType<typeof subscribe>>) {
  const { conversationId } = await startedConversation(owner, "hello");
  const created = await events.next("conversation.created");
  expect(created.data.conversation.id).toBe(conversationId);
}

describe("conversation-events/ ends when its reader's access does", () => {
  it("stays open while the member keeps conversation.view", async () => {
    const owner = await seedOwner();
    const viewer = await seedMember(owner, ["conversation.view"]);
    const events = await subscribe(byKey(viewer), owner.organizationId);
    await new Promise((r) => setTimeout(r, 500)); // several checks pass
    await someTraffic(owner, events);
    await events.close();
  });

  it("the member's group loses conversation.view: permission_denied, and the hub drops the stream", async () => {
    const owner = await seedOwner();
    const viewer = await seedMember(owner, ["conversation.view"]);
    const events = await subscribe(byKey(viewer), owner.organizationId);
    await someTraffic(owner, events);
    const res = await owner.fetch("PATCH", `/organizations/${owner.organizationId}/groups/${viewer.groupId}/`, {
      permissions: [],
    });
    expect(res.status, await res.text()).toBe(200);
    expect(await expectEnded(events, "permission_denied")).toContain("conversation.view");
    // The ended stream is no longer a subscriber of the organization's hub: the runtime passes the
    // cancel on to the hub's side when the hub next writes to it (as for any reader that went away).
    const hub = inboxEventsObject(env, owner.organizationId);
    await expect
      .poll(async () => (await hub.publish([{ event: "conversation.typing", data: TYPING_PROBE }]), hub.publish([])))
      .toBe(0);
  });

  it("the member is removed from the organization: permission_denied", async () => {
    const owner = await seedOwner();
    const viewer = await seedMember(owner, ["conversation.view"]);
    const events = await subscribe(byKey(viewer), owner.organizationId);
    expect(
      (await owner.fetch("DELETE", `/organizations/${owner.organizationId}/members/${viewer.memberId}/`)).status,
    ).toBe(204);
    expect(await expectEnded(events, "permission_denied")).toContain("no longer a member");
  });

  it("the API key it was opened with is revoked: not_authenticated", async () => {
    const owner = await seedOwner();
    const events = await subscribe(byKey(owner), owner.organizationId);
    const {
      results: [key],
    } = await bodyOf<"GET /api-keys/">(await owner.fetch("GET", "/api-keys/"));
    expect((await owner.fetch("DELETE", `/api-keys/${key.id}/`)).status).toBe(204);
    expect(await expectEnded(events, "not_authenticated")).toContain("API key");
  });

  it("the console session it was opened with signs out: not_authenticated; another session's goes on", async () => {
    const owner = await withPassword(await seedOwner());
    const [leaving, staying] = await Promise.all([
      signIn({ email: owner.email, password: "correct horse battery" }),
      signIn({ email: owner.email, password: "correct horse battery" }),
    ]);
    const byCookie =
      (cookie: string): Request =>
      (path) =>
        call("GET", `/api/v1${path}`, undefined, { Cookie: `console_session=${cookie}` }, FAST);
    const gone = await subscribe(byCookie(leaving.cookie), owner.organizationId);
    const kept = await subscribe(byCookie(staying.cookie), owner.organizationId);
    const out = await call("DELETE", "/api/v1/auth/sessions/current/", undefined, {
      Cookie: `console_session=${leaving.cookie}`,
      Origin: ORIGIN,
    });
    expect(out.status).toBe(204);
    expect(await expectEnded(gone, "not_authenticated")).toContain("console session");
    await someTraffic(owner, kept);
    await kept.close();
  });
});
