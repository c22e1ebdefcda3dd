// WhatsApp end to end against the Graph stand-in: the shared scenarios (meta-support.ts) and what
// only the Cloud API has (the name in the payload, statuses in the same field).
import { describe, expect, it } from "vitest";
import { graph, META_ACCOUNTS, metaInbox, metaScenarios, signed, type MetaCase } from "./meta-support";
import * as sample from "./meta-samples";
import { conversationsOf, post } from "./support";

const whatsapp: MetaCase = {
  ...META_ACCOUNTS.whatsapp,
  name: "WhatsApp",
  image: (id) => sample.whatsappImage(id),
  sender: "16505551234",
  contactName: "Sheena Nelson", // from the payload's contacts: WhatsApp has no profile to ask
  sendPath: `/v24.0/${sample.PHONE_NUMBER_ID}/messages`,
  sendBody: (body) => ({
    messaging_product: "whatsapp",
    recipient_type: "individual",
    to: "16505551234",
    type: "text",
    text: { body, preview_url: true },
  }),
  typing: false,
};

describe("WhatsApp", () => {
  metaScenarios(whatsapp);

  it(
    "statuses make no conversation; connect checked the number and subscribed the app to the " + "business account",
    async () => {
      const { owner, token, inbox } = await metaInbox(whatsapp);
      expect((await post(inbox.path, await signed(sample.whatsappStatus))).status).toBe(200);
      await new Promise((r) => setTimeout(r, 1000));
      expect(await conversationsOf(owner, inbox.inboxId)).toEqual([]);
      const calls = (await graph.requests(token)).map((r) => `${r.method} ${r.path}`);
      expect(calls).toEqual([`GET /v24.0/${sample.PHONE_NUMBER_ID}`, `POST /v24.0/${sample.WABA_ID}/subscribed_apps`]);
    },
  );
});
