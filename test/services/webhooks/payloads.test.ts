import { describe, expect, it } from "vitest";
import { buildPayload, genesysPayload, legacyPayload, standardPayload } from "../../../src/services/webhooks/payloads";
import { conversationEventPayload } from "../../../src/services/webhooks/conversation-payloads";
import { TemplateError } from "../../../src/services/webhooks/templates";
import { SAMPLE_SENT, SAMPLE_SENT_CHANGES, bareEvent, sampleConversationEvent, sampleEvent } from "./sample";

describe("standard payload (service_standard)", () => {
  it("has exactly the spec's fields, snake_case, ISO 8601 created_at", () => {
    expect(standardPayload(sampleEvent())).toStrictEqual({
      id: "01900000-0000-7000-8000-000000000001",
      type: "outgoing",
      content: "您好！我们的营业时间是 9 点到 5 点。",
      created_at: "2024-05-01T08:30:00.123Z",
      ...SAMPLE_SENT.context,
      sender: SAMPLE_SENT.sender,
      attachments: [SAMPLE_SENT.attachment],
      metadata: { timeZone: "Asia/Taipei", nested: { a: [1, 2] } },
    });
  });

  it("sends null for a missing contact and assignee", () => {
    const p = standardPayload(bareEvent());
    expect(p.contact).toBeNull();
    expect(p.conversation.assignee).toBeNull();
    expect(p.attachments).toEqual([]);
    expect(p.metadata).toEqual({});
    expect(p.sender).toEqual({ id: null, name: "Visitor", type: "contact" });
  });

  it("created_at parses back to the message time, with a UTC offset", () => {
    const p = standardPayload(sampleEvent());
    expect(p.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Date.parse(p.created_at)).toBe(sampleEvent().message.createdAt);
  });

  it("buildPayload sends it in JSON, also for an unknown preset", () => {
    const data = sampleEvent();
    expect(JSON.parse(buildPayload("service_standard", data))).toStrictEqual(standardPayload(data));
    expect(JSON.parse(buildPayload("something_else", data))).toStrictEqual(standardPayload(data));
  });
});

describe("lifecycle event payload (conversation.updated)", () => {
  it("is the standard payload's shape and casing: snake_case throughout, changes included", () => {
    expect(conversationEventPayload(sampleConversationEvent())).toStrictEqual({
      id: "01900000-0000-7000-8000-000000000008",
      event: "conversation.updated",
      created_at: "2024-05-01T08:30:01.123Z",
      reason: "operator",
      changes: SAMPLE_SENT_CHANGES,
      ...SAMPLE_SENT.context,
      conversation: {
        ...SAMPLE_SENT.context.conversation,
        progress_status: "human_serving",
        auto_reply_enabled: false,
      },
    });
  });

  it("shows the conversation, inbox and contact exactly as a message payload of the same moment does", () => {
    const event = sampleConversationEvent();
    const message = standardPayload({ ...sampleEvent(), conversation: event.conversation });
    const payload = conversationEventPayload(event);
    expect(payload.conversation).toStrictEqual(message.conversation);
    expect(payload.inbox).toStrictEqual(message.inbox);
    expect(payload.contact).toStrictEqual(message.contact);
    const bare = bareEvent();
    expect(
      conversationEventPayload(sampleConversationEvent({ conversation: bare.conversation, contact: null })),
    ).toMatchObject({
      conversation: { assignee: null },
      contact: null,
    });
  });

  it("has no camelCase key anywhere (the API record's names are not the payload's)", () => {
    const keys = (value: unknown): string[] =>
      value && typeof value === "object"
        ? Object.entries(value).flatMap(([k, v]) => [...(Array.isArray(value) ? [] : [k]), ...keys(v)])
        : [];
    const payload = JSON.parse(buildPayload("service_standard", sampleConversationEvent()));
    expect(keys(payload).filter((k) => /[A-Z]/.test(k))).toEqual([]);
    for (const old of ["progressStatus", "autoReplyEnabled", "channelType", "lastMessageCreatedAt", "createdAt"])
      expect(JSON.stringify(payload)).not.toContain(`"${old}"`);
  });

  it("is what service_standard, an unknown preset and legacy (no shape for an event) send", () => {
    const event = sampleConversationEvent();
    for (const preset of ["service_standard", "legacy", "something_else"])
      expect(JSON.parse(buildPayload(preset, event))).toStrictEqual(conversationEventPayload(event));
  });
});

describe("older payload format (legacy)", () => {
  it("has the older fields, created_at in milliseconds as a string", () => {
    const data = sampleEvent();
    expect(legacyPayload(data)).toStrictEqual({
      id: "01900000-0000-7000-8000-000000000001",
      conversation: "01900000-0000-7000-8000-000000000002",
      sender: {
        id: "01900000-0000-7000-8000-000000000006",
        name: "Support bot",
        avatar: "https://cdn.example.com/bot.png",
      },
      type: "outgoing",
      content: "您好！我们的营业时间是 9 点到 5 点。",
      feedback: null,
      created_at: "1714552200123",
      attachments: [
        {
          id: "01900000-0000-7000-8000-000000000007",
          type: "image",
          filename: "map.png",
          file: "https://files.example.com/map.png",
        },
      ],
      citations: data.message.citations,
    });
    expect(JSON.parse(buildPayload("legacy", data))).toStrictEqual(legacyPayload(data));
  });

  it("sends feedback in an object: JSON objects unchanged, other text in {value}", () => {
    const withFeedback = (feedback: string | Record<string, unknown> | null) => {
      const e = sampleEvent();
      return legacyPayload({ ...e, message: { ...e.message, feedback } }).feedback;
    };
    expect(withFeedback(null)).toBeNull();
    expect(withFeedback("")).toBeNull();
    expect(withFeedback('{"rating":"like","comment":"ok"}')).toEqual({ rating: "like", comment: "ok" });
    expect(withFeedback("like")).toEqual({ value: "like" });
    expect(withFeedback('"like"')).toEqual({ value: '"like"' });
    expect(withFeedback({ rating: "dislike" })).toEqual({ rating: "dislike" });
  });

  it("keeps a null sender id and empty arrays", () => {
    const p = legacyPayload(bareEvent());
    expect(p.sender).toEqual({ id: null, name: "Visitor", avatar: null });
    expect(p.attachments).toEqual([]);
    expect(p.citations).toEqual([]);
  });
});

describe("Genesys Cloud preset (genesys_cloud)", () => {
  it("is an Open Messaging message from the contact", () => {
    const data = sampleEvent();
    expect(genesysPayload(data)).toStrictEqual({
      id: "01900000-0000-7000-8000-000000000001",
      channel: {
        platform: "Open",
        type: "Private",
        messageId: "01900000-0000-7000-8000-000000000001",
        to: { id: "01900000-0000-7000-8000-000000000004" },
        from: {
          nickname: "Chen Mei Ling",
          id: "U4af4980629",
          idType: "Opaque",
          firstName: "Chen",
          lastName: "Mei Ling",
        },
        time: "2024-05-01T08:30:00.123Z",
      },
      type: "Text",
      text: "您好！我们的营业时间是 9 点到 5 点。",
      content: [
        {
          contentType: "Attachment",
          attachment: { mediaType: "Image", url: "https://files.example.com/map.png", filename: "map.png" },
        },
      ],
      direction: "Outbound",
    });
    expect(JSON.parse(buildPayload("genesys_cloud", data))).toStrictEqual(genesysPayload(data));
  });

  it("falls back to the contact id, then to anonymous; visitor messages are Inbound", () => {
    const e = sampleEvent();
    const noSource = genesysPayload({ ...e, contact: { ...e.contact!, sourceId: null, name: "Mononym" } });
    expect(noSource.channel.from).toStrictEqual({
      nickname: "Mononym",
      id: e.contact!.id,
      idType: "Opaque",
      firstName: "Mononym",
    });

    const bare = genesysPayload(bareEvent());
    expect(bare.channel.from).toStrictEqual({ nickname: "Visitor", id: "anonymous", idType: "Opaque" });
    expect(bare.direction).toBe("Inbound");
    expect(bare).not.toHaveProperty("content");
  });
});

describe("custom preset", () => {
  it("renders the configuration's template", () => {
    const body = buildPayload(
      "custom",
      sampleEvent(),
      '{"text": {{ message.content | tojson }}, "at": {{ message.created_at | tojson }}}',
    );
    expect(JSON.parse(body)).toEqual({ text: "您好！我们的营业时间是 9 点到 5 点。", at: "2024-05-01T08:30:00.123Z" });
  });

  it("throws a TemplateError without a template or when the output is not JSON", () => {
    expect(() => buildPayload("custom", sampleEvent(), null)).toThrow(TemplateError);
    expect(() => buildPayload("custom", sampleEvent(), "")).toThrow(/empty/);
    expect(() => buildPayload("custom", sampleEvent(), '{"text": "{{ message.content }}"')).toThrow(TemplateError);
  });
});
