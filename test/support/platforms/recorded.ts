// What the stand-ins record of the requests our worker made to them (`/__requests`, the upstream's `/last-request`):
// each JSON body in the shape the platform documents, with the fields the tests read. One interface serves all of a
// platform's endpoints, so a field one endpoint does not take is optional.

/** One request the worker made to a platform's stand-in. */
export interface RecordedRequest<Body = unknown> {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body: Body;
  at: number;
}

/** LINE Messaging API: push, reply, loading animation, webhook endpoint. */
export interface LineBody {
  to?: string;
  replyToken?: string;
  chatId?: string;
  loadingSeconds?: number;
  endpoint?: string;
  messages?: {
    type: string;
    text?: string;
    quickReply?: { items: { type: string; action: { type: string; label?: string; text: string } }[] };
  }[];
}

/** Telegram Bot API: sendMessage, sendChatAction, answerCallbackQuery, setWebhook. */
export interface TelegramBody {
  chat_id?: number | string;
  text?: string;
  action?: string;
  reply_markup?: { inline_keyboard: { text: string; callback_data: string }[][] };
  callback_query_id?: string;
  url?: string;
  secret_token?: string;
  allowed_updates?: string[];
}

/** Meta Graph API sends: Messenger and Instagram (`recipient`, `message`) and WhatsApp Cloud (`to`, `type`). */
export interface GraphBody {
  recipient?: { id: string };
  messaging_type?: string;
  tag?: string;
  sender_action?: string;
  message?: { text?: string; quick_replies?: { content_type: string; title: string; payload: string }[] };
  messaging_product?: string;
  to?: string;
  type?: string;
  text?: { body: string; preview_url?: boolean };
  interactive?: {
    type: string;
    body: { text: string };
    action: { buttons: { type: string; reply: { id: string; title: string } }[] };
  };
}

/** Slack Web API: chat.postMessage and its blocks. */
export interface SlackBody {
  channel?: string;
  text?: string;
  thread_ts?: string;
  blocks?: { type: string; text?: unknown; elements?: { type: string; value?: string; text?: unknown }[] }[];
}

/** An OpenAI-compatible chat completion request. */
export interface ChatCompletionBody {
  model: string;
  messages: UpstreamMessage[];
  tools?: { type: string; function: { name: string; description?: string; parameters?: unknown } }[];
  tool_choice?: unknown;
  response_format?: { type: string; json_schema?: { name: string; schema: unknown; strict?: boolean } };
  stream?: boolean;
  max_tokens?: number;
  temperature?: number;
}

export interface UpstreamMessage {
  role: string;
  /** Text, or the parts of a message with images (`ContentPart[]`). */
  content: string | null | ContentPart[];
  tool_calls?: { id: string; type: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

export interface ContentPart {
  type: string;
  text?: string;
  image_url?: { url: string };
}

/** An OpenAI-compatible embeddings request. */
export interface EmbeddingsBody {
  model: string;
  input: string[];
}

/** What the upstream last received for a model name (a chat completion unless `Body` says otherwise). */
export interface UpstreamRequest<Body = ChatCompletionBody> {
  headers: { authorization: string | null };
  body: Body;
  aborted: boolean;
}
