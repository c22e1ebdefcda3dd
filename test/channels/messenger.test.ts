// Messenger end to end against the Graph stand-in: the shared scenarios (meta-support.ts) and what
// only a Page has (echoes of its own messages, other Pages of the same app).
import { describe, expect, it } from "vitest";
import { graph, META_ACCOUNTS, metaInbox, metaScenarios, newId, signed, type MetaCase } from "./meta-support";
import * as sample from "./meta-samples";
import { conversationsOf, post } from "./support";

const messenger: MetaCase = {
  ...META_ACCOUNTS.messenger,
  name: "Messenger",
  image: (id) => sample.messengerAttachment(`${graph.url}/cdn/photo.png`, id),
  sender: sample.PSID,
  contactName: "Ada Lovelace", // the stand-in's profile (first_name, last_name)
  sendPath: `/v24.0/${sample.PAGE_ID}/messages`,
  sendBody: (text) => ({ recipient: { id: sample.PSID }, messaging_type: "RESPONSE", message: { text } }),
  typing: true,
};

describe("Messenger", () => {
  metaScenarios(messenger);

  it("the Page's echoes, deliveries and reads and another Page's messages make no conversation", async () => {
    const { owner, token, inbox } = await metaInbox(messenger);
    expect((await post(inbox.path, await signed(sample.messengerNoise))).status).toBe(200);
    expect(
      (await post(inbox.path, await signed(sample.messengerText("Hi", newId("m_"), "100200300400500")))).status,
    ).toBe(200);
    await new Promise((r) => setTimeout(r, 1000));
    expect(await conversationsOf(owner, inbox.inboxId)).toEqual([]);
    // Connect subscribed the Page to the app, which is what makes Meta send its messages at all.
    const calls = (await graph.requests(token)).map((r) => `${r.method} ${r.path}`);
    expect(calls).toEqual([`GET /v24.0/${sample.PAGE_ID}`, `POST /v24.0/${sample.PAGE_ID}/subscribed_apps`]);
  });
});
