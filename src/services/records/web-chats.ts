import type { WebChatSettings } from "../../db/schema";
import { ms } from "../../lib/time";
import type { WebChatRow, WebChatView } from "../inboxes";

/** The eleven feature switches of a web chat; all false when unset except `enableShowPoweredBy`. */
export const WEB_CHAT_FLAGS = [
  "enableFileUpload",
  "enableDisplayCitations",
  "enableDisplayToolResults",
  "enableShareConversation",
  "enableLocation",
  "enableShowPoweredBy",
  "enableAnonymous",
  "enableThemeModeToggle",
  "enableDownloadCitations",
  "enableDisplayChatbotAvatar",
  "enableDisplayChatbotName",
] as const;
export type WebChatFlag = (typeof WEB_CHAT_FLAGS)[number];
const FLAG_DEFAULTS: Partial<Record<WebChatFlag, boolean>> = { enableShowPoweredBy: true };

export type WebChatRecord = Record<WebChatFlag, boolean> & {
  id: string;
  name: string;
  avatar: string | null;
  logo: string | null;
  cover: string | null;
  poweredByLogo: string | null;
  description: string | null;
  backUrl: string | null;
  isActive: boolean;
  enableSpeech: boolean;
  displayGreeting: string;
  displayConversationStarters: string[];
  theme: WebChatSettings["theme"];
  darkTheme: WebChatSettings["darkTheme"];
  accessType: WebChatRow["accessType"];
  defaultThemeMode: NonNullable<WebChatSettings["defaultThemeMode"]> | null;
  customDomain: NonNullable<WebChatSettings["customDomain"]> | null;
  inbox: { id: string; name: string };
  createdAt: string;
  updatedAt: string;
};

export function webChatRecord({ webChat, inbox }: WebChatView): WebChatRecord {
  const s = webChat.settings;
  const flags = Object.fromEntries(WEB_CHAT_FLAGS.map((k) => [k, s[k] ?? FLAG_DEFAULTS[k] ?? false])) as Record<
    WebChatFlag,
    boolean
  >;
  return {
    id: webChat.id,
    name: webChat.name,
    avatar: s.avatar ?? null,
    logo: s.logo ?? null,
    cover: s.cover ?? null,
    poweredByLogo: s.poweredByLogo ?? null,
    description: s.description ?? null,
    backUrl: s.backUrl ?? null,
    isActive: webChat.isActive,
    enableSpeech: s.enableSpeech ?? false,
    displayGreeting: s.displayGreeting ?? "",
    displayConversationStarters: s.displayConversationStarters ?? [],
    theme: s.theme ?? {},
    darkTheme: s.darkTheme ?? {},
    accessType: webChat.accessType,
    defaultThemeMode: s.defaultThemeMode ?? null,
    customDomain: s.customDomain ?? null,
    inbox,
    createdAt: ms(webChat.createdAt)!,
    updatedAt: ms(webChat.updatedAt)!,
    ...flags,
  };
}
