import { choicesOf, type ChoiceKind } from "../../api/choices";
import { api, otherwise, unwrap, type BodyOf, type Schemas } from "../../api/client";
import { inView } from "./views";

export type Conversation = Schemas["Conversation"];
export type Message = Schemas["Message"];
export type Option = [string, string];

export interface Filters {
  chatbot: string;
  inbox: string;
  status: string;
  progressStatus: string;
  contact: string;
  startDate: string;
  endDate: string;
  /** "": tests and the rest; "false": hide tests; "true": only tests (the try-it's conversations). */
  isTest: string;
  label: string;
  /** Full-text search (GET /conversations/?keyword=). */
  keyword: string;
  /** "" (all), "mine", "unassigned" or "waiting" (views.tsx). */
  view: string;
}
export const NO_FILTERS: Filters = {
  chatbot: "",
  inbox: "",
  status: "",
  progressStatus: "",
  contact: "",
  startDate: "",
  endDate: "",
  isTest: "",
  label: "",
  keyword: "",
  view: "",
};
export const TEST_CHOICES = ["false", "true"] as const;
export const STATUSES = ["open", "queued", "resolved"] as const;
export const PROGRESS_STATUSES = ["ai_processing", "waiting_for_human", "human_serving", "resolved", "open"] as const;

const defined = (filters: Filters) =>
  Object.fromEntries(Object.entries(filters).filter(([, v]) => v)) as Partial<Filters>;

/** The browser's timezone: the From and To days are the member's own, as the list shows its times. */
const timezone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** When the day `YYYY-MM-DD` (plus `days`) starts in the browser's timezone. */
const localDayStart = (day: string, days = 0) => {
  const [y, m, d] = day.split("-").map(Number);
  return new Date(y, m - 1, d + days).getTime();
};

/** A page of the organization's conversations (newest first) matching `filters`; `cursor` from the previous page's
 * `next`. */
export async function listConversations(filters: Filters, cursor?: string) {
  const days = filters.startDate || filters.endDate ? { timezone: timezone() } : {};
  const query = { ...defined(filters), ...days, pageSize: 30, ...(cursor ? { cursor } : {}) } as Record<
    string,
    string | number
  >;
  const page = await unwrap(api.GET("/api/v1/conversations/", { params: { query: query as never } }));
  return {
    results: page.results,
    next: page.next ? (new URL(page.next).searchParams.get("cursor") ?? undefined) : undefined,
  };
}

export const getConversation = (id: string) =>
  unwrap(api.GET("/api/v1/conversations/{id}/", { params: { path: { id } } }));

/** The conversation's latest 100 messages, oldest first. */
export async function listMessages(conversation: string): Promise<Message[]> {
  const page = await unwrap(api.GET("/api/v1/messages/", { params: { query: { conversation, pageSize: 100 } } }));
  return [...page.results].reverse();
}

export const takeOver = (id: string) =>
  unwrap(api.POST("/api/v1/conversations/{id}/take-over/", { params: { path: { id } } }));
export const handBack = (id: string) =>
  unwrap(
    api.PATCH("/api/v1/conversations/{id}/update-auto-reply/", {
      params: { path: { id } },
      body: { autoReplyEnabled: true },
    }),
  );
export const resolve = (id: string) =>
  unwrap(api.POST("/api/v1/conversations/{id}/resolve/", { params: { path: { id } } }));
/** A reply to the visitor, or with `isPrivate` a note only the team sees. */
export const reply = (
  conversation: string,
  content: string,
  isPrivate = false,
  attachments: { filename: string; file: string }[] = [],
) =>
  unwrap(
    api.POST("/api/v1/messages/outgoing/", {
      body: { conversation, content, private: isPrivate, ...(attachments.length ? { attachments } : {}) },
    }),
  );
export const assign = (id: string, body: BodyOf<"/api/v1/conversations/{id}/assign/", "post">) =>
  unwrap(api.POST("/api/v1/conversations/{id}/assign/", { params: { path: { id } }, body }));

/** Marks a conversation read by the team (its unread count 0); the live stream tells the other tabs. */
export const markRead = (id: string) =>
  unwrap(api.POST("/api/v1/conversations/{id}/read/", { params: { path: { id } } }));

/** Puts exactly these labels on the conversation; answers it as saved. */
export const setLabels = (id: string, labelIds: string[]) =>
  unwrap(api.PUT("/api/v1/conversations/{id}/labels/", { params: { path: { id } }, body: { labelIds } }));

/** Tells the visitor the member is typing (or stopped); a lost signal only costs the indicator. */
export const sendTyping = (id: string, typing: boolean) =>
  unwrap(api.POST("/api/v1/conversations/{id}/typing/", { params: { path: { id } }, body: { typing } })).catch(
    otherwise(undefined),
  );

/** Sends a message the channel failed to deliver again (queued). */
export const retryDelivery = (messageId: string) =>
  unwrap(api.POST("/api/v1/messages/{id}/channel-delivery/retry/", { params: { path: { id: messageId } } }));

/** The organization's members, the first 100 (null when the caller may not list them). */
/** Whom the conversation can be assigned to: its organization's members (each saying whether in its team) and teams. */
export const assignees = (id: string) =>
  unwrap(api.GET("/api/v1/conversations/{id}/assignees/", { params: { path: { id } } }));

/** A fresh signed URL of an attachment (the one stored in the message may have expired). */
export const attachmentUrl = async (id: string) =>
  (await unwrap(api.GET("/api/v1/attachments/{id}/", { params: { path: { id } } }))).file;

/** The choices of the filters: assistants, inboxes, contacts and labels (the first 100 of each). */
export async function filterOptions(organizationId: string): Promise<{
  chatbots: Option[];
  inboxes: Option[];
  contacts: Option[];
  labels: Option[];
}> {
  const pairs = async (kind: ChoiceKind) =>
    ((await choicesOf(kind, organizationId)) ?? []).map((r): Option => [r.id, r.name]);
  const [chatbots, inboxes, contacts, labels] = await Promise.all(
    (["assistants", "inboxes", "contacts", "labels"] as const).map(pairs),
  );
  return { chatbots, inboxes, contacts, labels };
}

/**
 * Whether a conversation (as an event carries it: ids and state) belongs in the list under `filters`.
 * The keyword is the server's to judge: the page adds no conversation from an event while one is typed.
 */
export function matches(
  c: {
    inbox: { id: string };
    chatbot: { id: string } | null;
    contact: { id: string } | null;
    assignee: { id: string } | null;
    status: string;
    progressStatus: string;
    createdAt: string;
    isTest?: boolean;
    labels?: { id: string }[];
  },
  f: Filters,
) {
  const created = Number(c.createdAt);
  return (
    inView(c, f.view) &&
    (!f.inbox || c.inbox.id === f.inbox) &&
    (!f.chatbot || c.chatbot?.id === f.chatbot) &&
    (!f.contact || c.contact?.id === f.contact) &&
    (!f.status || c.status === f.status) &&
    (!f.progressStatus || c.progressStatus === f.progressStatus) &&
    (!f.startDate || created >= localDayStart(f.startDate)) &&
    (!f.endDate || created < localDayStart(f.endDate, 1)) &&
    // An event's conversation may not say whether it is a test: the full record read next decides.
    (!f.isTest || c.isTest === undefined || String(c.isTest) === f.isTest) &&
    // Events carry no labels either: the full record decides.
    (!f.label || c.labels === undefined || c.labels.some((l) => l.id === f.label))
  );
}
