import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { webChats } from "../../../src/db/schema";
import { db, type Actor } from "../../harness";
import { PNG, postForm, presign } from "../attachments/support";

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

/** The three steps of the API's upload flow, up to the key a web chat write takes. */
export async function uploadImage(actor: Actor, fieldName: string, filename = "avatar.png", bytes = PNG) {
  const p = await presign(actor, { modelName: "web-chat", fieldName, filename, fileSize: bytes.length });
  const up = await postForm(p.url, p.fields, { filename, bytes });
  expect(up.status, await up.clone().text()).toBe(204);
  return p.fields.key;
}
