import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { conversationEvents } from "../../src/db/schema";
import { conversationData, seedOwner, waitFor, type Actor } from "../harness";
import { createChatbot } from "../fixtures/chatbots";
import type { DeliveryRecord, Page } from "../routes/webhooks/fixtures";
import {
  addWebhook,
  attemptsOf,
  consumeAt,
  received,
  setMode,
  switchedWebhook,
  verifySignature,
} from "./webhook-fixtures";
import { assistantWithInbox, handedOff, seedAgent, settledAssignment } from "../routes/assignment/fixtures";
import { bodyOf } from "../support/api";
import { liveEvents } from "../support/sse";
import { receivedAt } from "../support/received";
import type { ReceivedRequest } from "../support/webhook-receiver.mjs";

/** The standard payload's conversation (the spec's "Standard payload"), which a lifecycle event carries too. */
const STANDARD_CONVERSATION_KEYS = [
  "assignee",
  "auto_reply_enabled",
  "id",
  "progress_status",
  "status",
  "title",
  "type",
];
/** Every key of a JSON value, nested ones included (not array indexes). */
const keysOf = (value: unknown): string[] =>
  value && typeof value === "object"
    ? Object.entries(value).flatMap(([k, v]) => [...(Array.isArray(value) ? [] : [k]), ...keysOf(v)])
    : [];

/** A delivered body as far as these tests read it: a lifecycle event, a message event or a custom template's. */
type Payload = {
  id: string;
  event?: string;
  created_at: string;
  reason?: string;
  changes?: unknown;
  inbox?: unknown;
  contact?: unknown;
  conversation: { id: string; status: string } & Record<string, unknown>;
  type?: string;
  content?: unknown;
  kind?: string;
};
const payloadOf = (r: { body: string }): Payload => JSON.parse(r.body);

const lifecycle = (requests: ReceivedRequest[]) =>
  requests.map((r) => ({ ...r, payload: payloadOf(r) })).filter((r) => r.payload.event === "conversation.updated");

async function talk(owner: Actor, botId: string, content: string, conversation?: string) {
  const res = await owner.fetch("POST", `/chatbots/${botId}/completions/`, { conversation, message: { content } });
  expect(res.status, await res.clone().text()).toBe(200);
  return await bodyOf<"POST /chatbots/{chatbotId}/completions/">(res);
}

async function records(owner: Actor, inboxId: string, webhookId: string, query = ""): Promise<Page<DeliveryRecord>> {
  const res = await owner.fetch("GET", `/inboxes/${inboxId}/webhooks/${webhookId}/records/${query}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json();
}

describe("lifecycle events as outgoing webhook events (conversationEvents, CONTRACT section 18)", () => {
  it("a member's reply to a waiting conversation is an event (reason operator); a private note is not", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const opted = await addWebhook(owner, bot.defaultInbox!.id, { conversationEvents: true });
    const { conversationId: id } = await talk(owner, bot.id, "Hello");
    await talk(owner, bot.id, "I want to talk to a human", id);
    const note = await owner.fetch("POST", "/messages/outgoing/", { conversation: id, content: "VIP", private: true });
    expect(note.status, await note.clone().text()).toBe(201);
    const replied = await owner.fetch("POST", "/messages/outgoing/", { conversation: id, content: "Hi, Sam here." });
    expect(replied.status, await replied.clone().text()).toBe(201);
    const hits = lifecycle(
      await waitFor(
        () => receivedAt(opted.path),
        (r) => lifecycle(r).length >= 2,
      ),
    );
    const served = hits.find((h) => h.payload.reason === "operator")!;
    expect(served.payload.changes).toMatchObject({
      status: ["queued", "open"],
      progress_status: ["waiting_for_human", "human_serving"],
    });
    expect(served.payload.changes).not.toHaveProperty("progressStatus");
    const events = await (await conversationData(owner.organizationId, id))
      .select()
      .from(conversationEvents)
      .where(eq(conversationEvents.conversationId, id));
    expect(events.map((e) => e.reason).sort()).toEqual(["operator", "visitor_request"]);
  });

  it(
    "a visitor's message reopening a resolved conversation is an event (reason visitor_request), live and for " +
      "the webhooks",
    async () => {
      const owner = await seedOwner();
      const bot = await createChatbot(owner);
      const opted = await addWebhook(owner, bot.defaultInbox!.id, { conversationEvents: true });
      const { conversationId: id } = await talk(owner, bot.id, "Hello");
      const resolved = await owner.fetch("POST", `/conversations/${id}/resolve/`);
      expect(resolved.status, await resolved.clone().text()).toBe(200);
      const stream = await owner.fetch("GET", `/organizations/${owner.organizationId}/conversation-events/`);
      const live = liveEvents(stream);
      await live.next((e) => e.event === "ready");

      await talk(owner, bot.id, "One more thing", id);
      const reopened = await live.next(
        (e) => e.event === "conversation.updated" && e.data.reason === "visitor_request",
      );
      expect(reopened.data).toMatchObject({
        changes: { status: ["resolved", "open"], progressStatus: ["resolved", "ai_processing"] },
        conversation: { id, status: "open", progressStatus: "ai_processing" },
      });
      await live.close();
      const hits = lifecycle(
        await waitFor(
          () => receivedAt(opted.path),
          (r) => lifecycle(r).some((h) => h.payload.reason === "visitor_request"),
        ),
      );
      // The live stream names them as the API does; the webhook as the standard payload does (snake_case).
      const webhookEvent = hits.find((h) => h.payload.reason === "visitor_request")!.payload;
      expect(webhookEvent).toMatchObject({
        event: "conversation.updated",
        changes: { status: ["resolved", "open"], progress_status: ["resolved", "ai_processing"] },
        conversation: { id, status: "open", progress_status: "ai_processing", auto_reply_enabled: true },
      });
      expect(keysOf(webhookEvent).filter((k) => /[A-Z]/.test(k))).toEqual([]);
      // A visitor's message to an open conversation changes nothing of its lifecycle: no event.
      await talk(owner, bot.id, "And another", id);
      const events = await (await conversationData(owner.organizationId, id))
        .select()
        .from(conversationEvents)
        .where(eq(conversationEvents.conversationId, id));
      expect(events.map((e) => e.reason).sort()).toEqual(["resolved", "visitor_request"]);
    },
  );

  it("an automatic assignment is an event (reason auto_assignment), recorded only if the agent had room", async () => {
    const owner = await seedOwner();
    const agent = await seedAgent(owner, "online");
    const { inboxId, talk } = await assistantWithInbox(owner, { mode: "round_robin", teamId: null, capacity: 1 });
    const opted = await addWebhook(owner, inboxId, { conversationEvents: true });
    const first = await handedOff(talk);
    expect((await settledAssignment(owner, first)).assignee?.id).toBe(agent.userId);
    const hits = lifecycle(
      await waitFor(
        () => receivedAt(opted.path),
        (r) => lifecycle(r).some((h) => h.payload.reason === "auto_assignment"),
      ),
    );
    const assigned = hits.find((h) => h.payload.reason === "auto_assignment")!;
    expect(assigned.payload).toMatchObject({
      changes: { assignee: [null, agent.userId] },
      conversation: { id: first, assignee: { id: agent.userId, name: expect.any(String) } },
    });
    expect(Object.keys(assigned.payload.conversation.assignee as object).sort()).toEqual(["id", "name"]);

    // The agent is full (capacity 1): the next handoff stays unassigned, and no assignment event is recorded for it.
    const second = await handedOff(talk);
    await waitFor(
      () => receivedAt(opted.path),
      (r) => lifecycle(r).some((h) => h.payload.conversation?.id === second),
    );
    const events = await (await conversationData(owner.organizationId, second))
      .select()
      .from(conversationEvents)
      .where(eq(conversationEvents.conversationId, second));
    expect(events.map((e) => e.reason)).toEqual(["visitor_request"]);
  });

  it(
    "an opted-in receiver gets handoff, takeover and resolve, signed, with their changes; one without the " +
      "opt-in gets messages only",
    async () => {
      const owner = await seedOwner();
      const bot = await createChatbot(owner);
      const inbox = bot.defaultInbox!.id;
      const opted = await addWebhook(owner, inbox, { conversationEvents: true, secretToken: "lifecycle-secret" });
      expect(opted.conversationEvents).toBe(true);
      const visitors = await addWebhook(owner, inbox, {
        direction: "incoming",
        conversationEvents: true,
        templatePreset: "legacy",
      });
      const plain = await addWebhook(owner, inbox, {});
      expect(plain.conversationEvents).toBe(false);

      const { conversationId: id } = await talk(owner, bot.id, "Hello");
      await talk(owner, bot.id, "I want to talk to a human", id);
      expect((await owner.fetch("POST", `/conversations/${id}/take-over/`)).status).toBe(200);
      expect((await owner.fetch("POST", `/conversations/${id}/resolve/`)).status).toBe(200);

      const hits = lifecycle(
        await waitFor(
          () => receivedAt(opted.path),
          (r) => lifecycle(r).length >= 3,
        ),
      );
      // Sent concurrently by the queue: told apart by their reason, not their order.
      expect(hits.map((h) => h.payload.reason).sort()).toEqual(["operator", "resolved", "visitor_request"]);
      const [handoff, takeover, resolved] = ["visitor_request", "operator", "resolved"].map(
        (reason) => hits.find((h) => h.payload.reason === reason)!.payload,
      );
      expect(handoff.changes).toEqual({
        status: ["open", "queued"],
        progress_status: ["ai_processing", "waiting_for_human"],
        auto_reply_enabled: [true, false],
      });
      expect(takeover.changes).toEqual({
        status: ["queued", "open"],
        progress_status: ["waiting_for_human", "human_serving"],
        assignee: [null, owner.userId],
      });
      expect(resolved.changes).toEqual({
        status: ["open", "resolved"],
        progress_status: ["human_serving", "resolved"],
      });
      // A message payload of the same webhook and conversation, for its conversation, inbox and contact.
      const message = (
        await waitFor(
          () => receivedAt(opted.path),
          (r) => r.map(payloadOf).some((p) => !p.event),
        )
      )
        .map(payloadOf)
        .find((p) => !p.event)!;
      expect(Object.keys(message.conversation).sort()).toEqual(STANDARD_CONVERSATION_KEYS);
      for (const { payload, headers, body } of hits) {
        // The standard payload of an event, one casing throughout: its own id (the webhook-id header), the
        // conversation, inbox and contact as message payloads show them.
        expect(Object.keys(payload).sort()).toEqual([
          "changes",
          "contact",
          "conversation",
          "created_at",
          "event",
          "id",
          "inbox",
          "reason",
        ]);
        expect(keysOf(payload).filter((k) => /[A-Z]/.test(k))).toEqual([]);
        expect(headers["webhook-id"]).toBe(payload.id);
        expect(
          await verifySignature(
            "lifecycle-secret",
            headers["webhook-id"],
            headers["webhook-timestamp"],
            body,
            headers["webhook-signature"],
          ),
        ).toBe(true);
        expect(payload.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
        expect(payload.inbox).toEqual({ id: inbox, name: expect.any(String), channel_type: "api" });
        expect(payload.inbox).toEqual(message.inbox);
        expect(payload.contact).toEqual(message.contact);
        expect(Object.keys(payload.conversation).sort()).toEqual(STANDARD_CONVERSATION_KEYS);
        expect(payload.conversation).toMatchObject({
          id,
          title: expect.any(String),
          type: "individual",
          progress_status: expect.any(String),
          auto_reply_enabled: expect.any(Boolean),
        });
      }
      expect(new Set(hits.map((h) => h.payload.id)).size).toBe(3);
      // The conversation as it is when the event is sent (these three were sent after it was resolved, or before).
      expect(["queued", "open", "resolved"]).toContain(handoff.conversation.status);

      // The event rows, written with each change; message events unchanged beside them.
      const rows = await (await conversationData(owner.organizationId, id))
        .select()
        .from(conversationEvents)
        .where(eq(conversationEvents.conversationId, id));
      expect(rows.map((r) => r.reason).sort()).toEqual(["operator", "resolved", "visitor_request"]);
      expect(rows.map((r) => r.id).sort()).toEqual(hits.map((h) => h.payload.id).sort());
      const messagesSeen = (await receivedAt(opted.path)).map(payloadOf).filter((p) => !p.event);
      expect(messagesSeen.every((p) => p.type === "outgoing" && typeof p.content === "string")).toBe(true);

      // An incoming webhook that opted in gets the events too (legacy preset: the standard event payload).
      const incoming = lifecycle(
        await waitFor(
          () => receivedAt(visitors.path),
          (r) => lifecycle(r).length >= 3,
        ),
      );
      expect(incoming.map((h) => h.payload.id).sort()).toEqual(hits.map((h) => h.payload.id).sort());
      for (const { payload } of incoming) {
        expect(Object.keys(payload.conversation).sort()).toEqual(STANDARD_CONVERSATION_KEYS);
        expect(payload.changes).toEqual(hits.find((h) => h.payload.id === payload.id)!.payload.changes);
      }

      // Without the opt-in: the two replies and the agent-less resolve leave message payloads only.
      const plainHits = await waitFor(
        () => receivedAt(plain.path),
        (r) => r.length >= 2,
      );
      await waitFor(
        () => records(owner, inbox, opted.id),
        (p) => p.results.every((r) => r.status === "success"),
      );
      expect(lifecycle(await receivedAt(plain.path))).toEqual([]);
      expect(plainHits.every((r) => JSON.parse(r.body).type === "outgoing")).toBe(true);
      expect((await records(owner, inbox, plain.id)).results.every((r) => r.event === "outgoing")).toBe(true);

      // The records API lists them: no message, the event's id, and finds one by it.
      const page = await records(owner, inbox, opted.id);
      const events = page.results.filter((r) => r.event === "conversation.updated");
      expect(events).toHaveLength(3);
      for (const r of events)
        expect(r).toMatchObject({ message: null, status: "success", attempt: 1, chatbot: { id: bot.id } });
      expect(events.map((r) => r.eventId).sort()).toEqual(hits.map((h) => h.payload.id).sort());
      const one = await records(owner, inbox, opted.id, `?eventId=${takeover.id}`);
      expect(one.results.map((r) => [r.event, r.eventId])).toEqual([["conversation.updated", takeover.id]]);
      expect(JSON.parse(one.results[0].requestBody!)).toMatchObject({ id: takeover.id, reason: "operator" });
    },
  );

  it(
    "a handoff in a new conversation's first turn, a custom template told by `event`, and no event when nothing " +
      "changes",
    async () => {
      const owner = await seedOwner();
      const bot = await createChatbot(owner);
      const inbox = bot.defaultInbox!.id;
      const template =
        '{% if event == "conversation.updated" %}{"kind": "lifecycle", "why": {{ reason | tojson }}, "status": ' +
        '{{ conversation.status | tojson }}, "was": {{ changes.progress_status[0] | tojson }}, "serving": ' +
        "{{ conversation.progress_status | tojson }}}" +
        '{% else %}{"kind": {{ event | tojson }}, "text": {{ message.content | tojson }}}{% endif %}';
      const custom = await addWebhook(owner, inbox, {
        conversationEvents: true,
        templatePreset: "custom",
        customTemplate: template,
      });

      const { conversationId: id } = await talk(owner, bot.id, "I need to talk to a person about order 4471");
      const [first] = await waitFor(
        () => receivedAt(custom.path),
        (r) => r.some((h) => JSON.parse(h.body).kind === "lifecycle"),
      ).then((r) => r.map(payloadOf).filter((p) => p.kind === "lifecycle"));
      expect(first).toEqual({
        kind: "lifecycle",
        why: "visitor_request",
        status: "queued",
        was: "ai_processing",
        serving: "waiting_for_human",
      });
      expect((await receivedAt(custom.path)).map((h) => JSON.parse(h.body).kind)).toContain("outgoing");

      // A second take-over by the same member changes nothing: no event, no delivery.
      expect((await owner.fetch("POST", `/conversations/${id}/take-over/`)).status).toBe(200);
      expect((await owner.fetch("POST", `/conversations/${id}/take-over/`)).status).toBe(200);
      const rows = await (await conversationData(owner.organizationId, id))
        .select()
        .from(conversationEvents)
        .where(eq(conversationEvents.conversationId, id));
      expect(rows.map((r) => r.reason).sort()).toEqual(["operator", "visitor_request"]);
      const deliveries = (await attemptsOf(custom.id)).filter((a) => a.event === "conversation.updated");
      expect(deliveries).toHaveLength(2);
    },
  );

  it("an event delivery is retried on the schedule, then sent again by hand, with the same id every time", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const inbox = bot.defaultInbox!.id;
    const { key, hook } = await switchedWebhook(owner, inbox, "down", {
      retryFailedDeliveries: true,
      conversationEvents: true,
    });
    const { conversationId: id } = await talk(owner, bot.id, "Hello");
    expect((await owner.fetch("POST", `/conversations/${id}/take-over/`)).status).toBe(200);

    // The real consumer makes attempt 1 (503) and schedules attempt 2.
    const first = await waitFor(
      () => attemptsOf(hook.id),
      (rows) => rows.some((a) => a.event === "conversation.updated" && a.attempt === 2),
    );
    const events = () => attemptsOf(hook.id).then((rows) => rows.filter((a) => a.event === "conversation.updated"));
    const [failed, next] = first.filter((a) => a.event === "conversation.updated");
    expect(failed).toMatchObject({ attempt: 1, status: "failure", responseStatus: 503, messageId: null });
    expect(next).toMatchObject({ attempt: 2, status: "pending", conversationEventId: failed.conversationEventId });

    await setMode(key, "ok");
    await consumeAt([next], next.scheduledAt);
    const settled = await events();
    expect(settled.map((a) => [a.attempt, a.status])).toEqual([
      [1, "failure"],
      [2, "success"],
    ]);
    const eventId = failed.conversationEventId!;
    for (const a of settled)
      expect(JSON.parse(a.requestBody!)).toMatchObject({
        id: eventId,
        event: "conversation.updated",
        reason: "operator",
      });

    // Sent again by hand from its record: attempt 3, the same event.
    const record = (await records(owner, inbox, hook.id, `?eventId=${eventId}`)).results.find((r) => r.attempt === 2)!;
    const res = await owner.fetch("POST", `/inboxes/${inbox}/webhooks/${hook.id}/records/${record.id}/redeliver/`);
    expect(res.status, await res.clone().text()).toBe(202);
    expect(await res.json()).toMatchObject({
      event: "conversation.updated",
      attempt: 3,
      eventId,
      message: null,
      status: "pending",
    });
    await waitFor(events, (rows) => rows.some((a) => a.attempt === 3 && a.status === "success"));
    const sent = (await received(key)).filter((r) => JSON.parse(r.body).event === "conversation.updated");
    expect(sent.map((r) => r.headers["webhook-id"])).toEqual([eventId, eventId, eventId]);
  });
});
