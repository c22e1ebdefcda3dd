import { webChatRecord, WEB_CHAT_FLAGS, type WebChatFlag } from "../records/web-chats";
import type { PublicWebChat } from "./web-chats";

/**
 * The widget's configuration: the web chat record without its inbox, custom domain and timestamps.
 * `enableFileUpload` is the web chat's own switch: visitors upload through `public/uploads/`.
 */
export function publicConfig(chat: PublicWebChat) {
  const record = webChatRecord({ webChat: chat.webChat, inbox: { id: "", name: "" } });
  const flags = Object.fromEntries(WEB_CHAT_FLAGS.map((k) => [k, record[k]])) as Record<WebChatFlag, boolean>;
  return {
    id: record.id,
    name: record.name,
    avatar: record.avatar,
    logo: record.logo,
    cover: record.cover,
    poweredByLogo: record.poweredByLogo,
    description: record.description,
    backUrl: record.backUrl,
    isActive: record.isActive,
    accessType: record.accessType,
    assistantName: chat.assistant?.chatbot.name ?? null,
    enableSpeech: record.enableSpeech,
    displayGreeting: record.displayGreeting,
    displayConversationStarters: record.displayConversationStarters,
    theme: record.theme,
    darkTheme: record.darkTheme,
    defaultThemeMode: record.defaultThemeMode ?? "system",
    ...flags,
  };
}
