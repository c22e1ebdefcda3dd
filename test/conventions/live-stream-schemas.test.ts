// The events of the organization's live stream (`conversation-events/`) and of a visitor's streams (a reply's, the
// conversation's live one) against the schemas the OpenAPI document names for them. The console and the widget type
// their readers with the types generated from these, so they must say what is sent.
import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { seedOwner, type Settings } from "../harness";
import { bodyOf, documentOf } from "../support/api";
import { SchemaKit, type Schema } from "../support/openapi-sweep/schema";
import { liveEvents, readEvents } from "../support/sse";
import { client, pub, seedWebChat, startSession } from "../routes/widget/fixtures";

type Event = { event: string; data: Record<string, unknown> };
type Live = ReturnType<typeof liveEvents<Event>>;

/** Each stream's events by name, with the schema the document names for each event's `data`. */
const STREAMS = {
  organization: {
    path: "/api/v1/organizations/{organizationPk}/conversation-events/",
    named: {
      ready: "StreamReadyEvent",
      "conversation.created": "ConversationCreatedEvent",
      "conversation.updated": "ConversationUpdatedEvent",
      "message.created": "MessageCreatedEvent",
      "conversation.typing": "ConversationTypingEvent",
      error: "StreamEndedEvent",
    },
  },
  reply: {
    path: "/api/v1/web-chats/{id}/public/messages/",
    named: { message: "WidgetReplyChunk" },
  },
  visitorLive: {
    path: "/api/v1/web-chats/{id}/public/conversations/{conversationId}/events/",
    named: {
      message: "WidgetMessage",
      status: "WidgetStatusEvent",
      typing: "WidgetTypingEvent",
      replying: "WidgetReplyingEvent",
    },
  },
} as const;
type Stream = keyof typeof STREAMS;

let kit: SchemaKit;
/** Each stream's `text/event-stream` schema, as its operation documents it. */
const streamSchemas = new Map<string, Schema>();
const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

beforeAll(async () => {
  const doc = await documentOf(await SELF.fetch("https://example.com/api/v1/openapi.json"));
  kit = new SchemaKit(doc.components);
  for (const [stream, { path }] of Object.entries(STREAMS)) {
    const operation = doc.paths[path].get ?? doc.paths[path].post;
    streamSchemas.set(stream, operation!.responses["200"].content!["text/event-stream"].schema);
  }
});

/** Each event's data against the schema named for its event, and against its operation's stream schema. */
function expectDocumented(stream: Stream, events: Event[]) {
  const named: Record<string, string> = STREAMS[stream].named;
  for (const { event, data } of events) {
    expect(named[event], `${stream}: event ${event} has no schema`).toBeDefined();
    expect(kit.valid(ref(named[event]), data), `${stream} ${event}: ${JSON.stringify(data)}`).toBe(true);
    expect(kit.valid(streamSchemas.get(stream)!, data), `${stream} ${event}: not in the stream's schema`).toBe(true);
  }
}

/** Reads `live` up to the first event named `name`, keeping every event read in `seen`. */
async function until(live: Live, name: string, seen: Event[]): Promise<Event> {
  for (;;) {
    const e = await live.next();
    seen.push(e);
    if (e.event === name) return e;
  }
}

// The organization's stream asks again whether its reader may read it every 100 ms here (30 s in a deployment).
const FAST: Settings = { INBOX_STREAM_RECHECK_MS: "100" };

describe("the live streams' events, as the OpenAPI document types them", () => {
  it("through a visitor's conversation: sent, answered, typed in, taken over, read, resolved, rated", async () => {
    const owner = await seedOwner();
    const org: Event[] = [];
    const res = await owner.fetch("GET", `/organizations/${owner.organizationId}/conversation-events/`, undefined, {
      settings: FAST,
    });
    expect(res.status).toBe(200);
    const inbox = liveEvents<Event>(res);
    await until(inbox, "ready", org);

    const chat = await seedWebChat(owner);
    const visitor = client();
    const session = await startSession(chat.id, { contact: { name: "Ada" } }, visitor);
    const send = async (content: string, conversation?: string) => {
      const sent = await visitor.post(pub(chat.id, "messages/"), { content, conversation }, session.token);
      expect(sent.status).toBe(200);
      const events = await readEvents<Event>(sent);
      expectDocumented("reply", events);
      return events.at(-1)!.data;
    };
    const answered = await send("hello");
    expect(answered).toMatchObject({ done: true, message: { role: "assistant" } });
    const id = String(answered.conversationId);
    await until(inbox, "conversation.created", org);
    await until(inbox, "message.created", org);
    await until(inbox, "message.created", org);

    const mine: Event[] = [];
    const opened = await visitor.get(pub(chat.id, `conversations/${id}/events/`), session.token);
    expect(opened.status).toBe(200);
    const widget = liveEvents<Event>(opened);
    await until(widget, "status", mine);
    await until(widget, "replying", mine);

    const operator = (verb: string, body?: unknown) => owner.fetch("POST", `/conversations/${id}/${verb}/`, body);
    expect((await operator("typing", { typing: true })).status).toBe(204);
    await until(inbox, "conversation.typing", org);
    await until(widget, "typing", mine);
    expect((await operator("take-over")).status).toBe(200);
    await until(inbox, "conversation.updated", org);
    expect((await until(widget, "status", mine)).data).toMatchObject({ agent: { name: expect.any(String) } });
    const reply = await owner.fetch("POST", "/messages/outgoing/", { conversation: id, content: "Sam here" });
    expect(reply.status).toBe(201);
    await until(inbox, "message.created", org);
    await until(widget, "message", mine);
    // A visitor's message while a person serves: no reply comes (`messageId` null); read/ then changes only the count.
    expect(await send("thanks", id)).toMatchObject({ done: true, messageId: null, message: null });
    await until(inbox, "message.created", org);
    expect((await operator("read")).status).toBe(200);
    expect((await until(inbox, "conversation.updated", org)).data).not.toHaveProperty("changes");
    expect((await operator("resolve")).status).toBe(200);
    await until(inbox, "conversation.updated", org);
    await until(widget, "status", mine);
    await widget.close();
    const rated = await visitor.post(pub(chat.id, `conversations/${id}/csat/`), { rating: 5 }, session.token);
    expect(rated.status, await rated.clone().text()).toBe(200);
    const withRating = await until(inbox, "conversation.updated", org);
    expect(withRating.data.conversation).toMatchObject({ csat: { rating: 5 } });

    // The key the stream was opened with is revoked: its last event says why.
    const { results } = await bodyOf<"GET /api-keys/">(await owner.fetch("GET", "/api-keys/"));
    for (const key of results) expect((await owner.fetch("DELETE", `/api-keys/${key.id}/`)).status).toBe(204);
    expect((await until(inbox, "error", org)).data).toMatchObject({ code: "not_authenticated" });

    expectDocumented("organization", org);
    expectDocumented("visitorLive", mine);
    // Every kind of event was seen, and the schemas are not vacuous: a conversation of nothing but its id is refused.
    expect(new Set(org.map((e) => e.event))).toEqual(new Set(Object.keys(STREAMS.organization.named)));
    expect(new Set(mine.map((e) => e.event))).toEqual(new Set(Object.keys(STREAMS.visitorLive.named)));
    expect(kit.valid(ref("ConversationUpdatedEvent"), { ...withRating.data, conversation: { id } })).toBe(false);
  });
});
