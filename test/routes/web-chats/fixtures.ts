import { eq } from "drizzle-orm";
import { webChats } from "../../../src/db/schema";
import { db } from "../../harness";

export type WebChatRecord = Record<string, unknown> & {
  id: string;
  name: string;
  theme: Record<string, unknown>;
  darkTheme: Record<string, unknown>;
  customDomain: { id: string; domain: string; status: string } | null;
  inbox: { id: string; name: string };
};

export const storedWebChat = async (id: string) => (await db().select().from(webChats).where(eq(webChats.id, id)))[0];

/** A complete PUT body: the spec's required fields. */
export const fullBody = (inboxId: string, extra: Record<string, unknown> = {}) => ({
  name: "Help desk",
  enableSpeech: true,
  displayGreeting: "Hello!",
  displayConversationStarters: ["Opening hours?", "Prices?"],
  theme: { primaryColor: "#3366FF" },
  darkTheme: { primaryColor: "#000" },
  accessType: "private",
  inbox: { id: inboxId },
  ...extra,
});
