import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { organizations } from "./organizations";
import { chatbots } from "./chatbots";
import { belongsTo, bool, id, json, timestamps } from "./columns";
import type { BusinessHours } from "../../services/business-hours";

export const CHANNEL_TYPES = [
  "web",
  "api",
  "line",
  "messenger",
  "instagram",
  "telegram",
  "teams",
  "email",
  "whatsapp",
  "slack",
  "team_plus",
  "line_works",
  "viber",
] as const;

/** How an inbox's handed-off conversations find a person: by hand, or round-robin among its team's online agents. */
export interface InboxAssignment {
  mode: "manual" | "round_robin";
  /** The team (group) that serves it; null: every member who may manage conversations. */
  teamId: string | null;
  /** Conversations with a person an agent serves at once, unless their own capacity says otherwise. */
  capacity: number;
}

/** A conversation platform of an assistant. A `web` inbox owns one web chat. */
export const inboxes = sqliteTable(
  "inboxes",
  {
    id: id(),
    organizationId: belongsTo("organization_id", () => organizations.id),
    name: text("name").notNull(),
    channelType: text("channel_type", { enum: CHANNEL_TYPES }).notNull(),
    chatbotId: text("chatbot_id").references(() => chatbots.id, { onDelete: "set null" }),
    /** The assistant's default inbox for API conversations. */
    isDefault: bool("is_default").notNull().default(false),
    /** When its team answers (services/business-hours.ts); null: always. */
    businessHours: json<BusinessHours>("business_hours"),
    /** Who serves its conversations once handed off (services/assignment): null: manual, no team. */
    assignment: json<InboxAssignment>("assignment"),
    ...timestamps(),
  },
  (t) => [index("inboxes_org_idx").on(t.organizationId), index("inboxes_chatbot_idx").on(t.chatbotId)],
);

export const WEB_CHAT_ACCESS_TYPES = ["public", "private"] as const;
export const THEME_MODES = ["light", "dark", "system"] as const;

/** Widget settings that are read and written whole (colours, switches, texts). */
export interface WebChatSettings {
  avatar?: string | null;
  logo?: string | null;
  cover?: string | null;
  poweredByLogo?: string | null;
  description?: string | null;
  backUrl?: string | null;
  enableSpeech: boolean;
  displayGreeting: string;
  displayConversationStarters: string[];
  theme: Record<string, string | boolean>;
  darkTheme: Record<string, string | boolean>;
  defaultThemeMode?: (typeof THEME_MODES)[number] | null;
  customDomain?: { id: string; domain: string; status: "pending" | "active" | "failed" } | null;
  /** The secret a business's backend signs visitor identities with, sealed (lib/crypto.ts); never returned. */
  identitySecretSealed?: string | null;
  [flag: `enable${string}`]: boolean | undefined;
}

export const webChats = sqliteTable(
  "web_chats",
  {
    id: id(),
    organizationId: belongsTo("organization_id", () => organizations.id),
    inboxId: text("inbox_id")
      .notNull()
      .unique()
      .references(() => inboxes.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    accessType: text("access_type", { enum: WEB_CHAT_ACCESS_TYPES }).notNull().default("public"),
    isActive: bool("is_active").notNull().default(true),
    settings: json<WebChatSettings>("settings").notNull(),
    ...timestamps(),
  },
  (t) => [index("web_chats_org_idx").on(t.organizationId)],
);
