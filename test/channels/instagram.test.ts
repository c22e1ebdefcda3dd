// Instagram end to end against the Graph stand-in: the shared scenarios (meta-support.ts) and its
// limit in bytes, which a reply in Japanese reaches first.
import { describe, expect, it } from "vitest";
import { graph, META_ACCOUNTS, metaInbox, metaScenarios, newId, sends, signed, type MetaCase } from "./meta-support";
import * as sample from "./meta-samples";
import { messagesWhen, onlyConversation, post } from "./support";

const instagramImage = (id: string) =>
  sample.instagramMessage({
    mid: id,
    attachments: [{ type: "image", payload: { url: `${graph.url}/cdn/story.png` } }],
  });

const instagram: MetaCase = {
  ...META_ACCOUNTS.instagram,
  name: "Instagram",
  image: instagramImage,
  sender: sample.IGSID,
  contactName: "Ada Lovelace", // the stand-in's profile (name, username)
  sendPath: "/v24.0/me/messages",
  sendBody: (text) => ({ recipient: { id: sample.IGSID }, messaging_type: "RESPONSE", message: { text } }),
  typing: true,
};

describe("Instagram", () => {
  metaScenarios(instagram);

  it("a reply over 1000 UTF-8 bytes goes out in parts within it", async () => {
    const { owner, token, inbox } = await metaInbox(instagram);
    await post(inbox.path, await signed(sample.instagramText("配送について教えてください。", newId("m_"))));
    const conversation = await onlyConversation(owner, inbox.inboxId);
    await messagesWhen(owner, conversation.id, (m) => m.length === 2);
    await owner.fetch("POST", `/conversations/${conversation.id}/take-over/`);
    const answer = "ご注文の商品は通常三営業日以内に発送いたします。".repeat(30); // 720 characters, 2160 bytes
    expect(
      (await owner.fetch("POST", "/messages/outgoing/", { conversation: conversation.id, content: answer })).status,
    ).toBe(201);
    const messages = await messagesWhen(
      owner,
      conversation.id,
      (m) => m[2]?.metadata?.channelDelivery?.status === "sent",
    );
    const parts = (await sends(instagram, token)).slice(1).map((r) => r.body.message!.text as string);
    expect(parts).toHaveLength(3);
    expect(parts.every((text) => new TextEncoder().encode(text).length <= 1000)).toBe(true);
    expect(parts.join("")).toBe(answer);
    expect(messages[2].metadata!.channelDelivery!.platformMessageIds).toHaveLength(3);
  });
});
