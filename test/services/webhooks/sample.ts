import type { WebhookEventData } from "../../../src/services/webhooks/payloads";
import type { ConversationEventData } from "../../../src/services/webhooks/conversation-payloads";

/** 2024-05-01T08:30:00.123Z */
export const CREATED_AT = Date.UTC(2024, 4, 1, 8, 30, 0, 123);

export function sampleEvent(overrides: Partial<WebhookEventData> = {}): WebhookEventData {
  return {
    message: {
      id: "01900000-0000-7000-8000-000000000001",
      type: "outgoing",
      content: "您好！我们的营业时间是 9 点到 5 点。",
      createdAt: CREATED_AT,
      metadata: { timeZone: "Asia/Taipei", nested: { a: [1, 2] } },
      feedback: null,
      citations: [
        {
          id: "c1",
          filename: "hours.pdf",
          file: "https://files.example.com/hours.pdf",
          fileType: "pdf",
          size: 1024,
          status: "done",
          document: null,
          createdAt: "1714552200000",
        },
      ],
    },
    conversation: {
      id: "01900000-0000-7000-8000-000000000002",
      title: "Opening hours",
      type: "individual",
      status: "open",
      progressStatus: "ai_processing",
      autoReplyEnabled: true,
      assignee: { id: "01900000-0000-7000-8000-000000000003", name: "Lin Wei" },
    },
    inbox: { id: "01900000-0000-7000-8000-000000000004", name: "LINE official", channelType: "line" },
    contact: {
      id: "01900000-0000-7000-8000-000000000005",
      name: "Chen Mei Ling",
      email: "mei@example.com",
      phoneNumber: "+886912345678",
      sourceId: "U4af4980629",
    },
    sender: {
      id: "01900000-0000-7000-8000-000000000006",
      name: "Support bot",
      avatar: "https://cdn.example.com/bot.png",
      type: "chatbot",
    },
    attachments: [
      {
        id: "01900000-0000-7000-8000-000000000007",
        type: "image",
        filename: "map.png",
        sourceUrl: "https://line.example.com/content/123",
        fileUrl: "https://files.example.com/map.png",
      },
    ],
    ...overrides,
  };
}

/**
 * What a receiver reads of `sampleEvent`, as the payloads and template variables name it (snake_case): the
 * conversation, inbox and contact its message is in (`context`, which lifecycle events carry too), its sender and its
 * attachment (the template variables' contact has its `source_id` too, their attachment its `url`).
 */
export const SAMPLE_SENT = {
  context: {
    conversation: {
      id: "01900000-0000-7000-8000-000000000002",
      title: "Opening hours",
      type: "individual",
      status: "open",
      progress_status: "ai_processing",
      auto_reply_enabled: true,
      assignee: { id: "01900000-0000-7000-8000-000000000003", name: "Lin Wei" },
    },
    inbox: { id: "01900000-0000-7000-8000-000000000004", name: "LINE official", channel_type: "line" },
    contact: {
      id: "01900000-0000-7000-8000-000000000005",
      name: "Chen Mei Ling",
      email: "mei@example.com",
      phone_number: "+886912345678",
    },
  },
  sender: { id: "01900000-0000-7000-8000-000000000006", name: "Support bot", type: "chatbot" },
  attachment: {
    id: "01900000-0000-7000-8000-000000000007",
    type: "image",
    filename: "map.png",
    source_url: "https://line.example.com/content/123",
  },
};

/** The same event with no contact, no assignee, no attachments. */
export function bareEvent(): WebhookEventData {
  const e = sampleEvent();
  return {
    ...e,
    message: { ...e.message, type: "incoming", metadata: {}, citations: [] },
    conversation: { ...e.conversation, assignee: null },
    contact: null,
    sender: { id: null, name: "Visitor", avatar: null, type: "contact" },
    attachments: [],
  };
}

/**
 * A takeover of the sample conversation, its `changes` named as the rows store them (the live stream's names); at
 * the time it is sent, the conversation is as `sampleEvent` shows it.
 */
export function sampleConversationEvent(overrides: Partial<ConversationEventData> = {}): ConversationEventData {
  const { conversation, inbox, contact } = sampleEvent();
  return {
    kind: "conversation.updated",
    id: "01900000-0000-7000-8000-000000000008",
    createdAt: CREATED_AT + 1_000,
    changes: {
      status: ["queued", "open"],
      progressStatus: ["waiting_for_human", "human_serving"],
      autoReplyEnabled: [true, false],
      assignee: [null, "01900000-0000-7000-8000-000000000003"],
    },
    reason: "operator",
    conversation: { ...conversation, progressStatus: "human_serving", autoReplyEnabled: false },
    inbox,
    contact,
    ...overrides,
  };
}

/** What a receiver reads of `sampleConversationEvent`'s `changes`: the fields named as the payloads name them. */
export const SAMPLE_SENT_CHANGES = {
  status: ["queued", "open"],
  progress_status: ["waiting_for_human", "human_serving"],
  auto_reply_enabled: [true, false],
  assignee: [null, "01900000-0000-7000-8000-000000000003"],
};
