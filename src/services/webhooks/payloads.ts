/**
 * What a webhook sends for one message: the data (`WebhookEventData`, everything the presets and
 * custom templates may use) and the body each preset builds from it.
 */
export interface WebhookEventData {
  message: {
    id: string;
    type: "incoming" | "outgoing";
    content: string;
    createdAt: number;
    metadata: Record<string, unknown>;
    feedback: string | null;
    citations: Record<string, unknown>[];
  };
  conversation: {
    id: string;
    title: string;
    type: "individual" | "group";
    status: string;
    progressStatus: string;
    autoReplyEnabled: boolean;
    assignee: { id: string; name: string } | null;
  };
  inbox: { id: string; name: string; channelType: string };
  contact: { id: string; name: string; email: string | null; phoneNumber: string | null; sourceId: string | null } | null;
  sender: { id: string | null; name: string; avatar: string | null; type: "chatbot" | "user" | "contact" };
  attachments: { id: string | null; type: string; filename: string; sourceUrl: string; fileUrl: string }[];
}
