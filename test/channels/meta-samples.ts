// Webhook payloads in the shape of Meta's docs (Messenger Platform "messages" and "message_echoes"
// references, Instagram messaging webhooks, WhatsApp Cloud API "messages" webhook), with ids of our
// test accounts where the docs have placeholders.
export const PAGE_ID = "682498302938465";
export const IG_ID = "17841405822304914";
export const PHONE_NUMBER_ID = "106540352242922";
export const WABA_ID = "102290129340398";
export const PSID = "6739018259561744";
/** A WhatsApp media id the stand-in serves (graph.mjs MEDIA): a PNG. */
export const MEDIA_ID = "1045263457620861";

/** Meta's "page" webhook around one message of the person (PSID) to the Page `pageId`. */
const pageMessage = (pageId: string, time: number, timestamp: number, message: object) => ({
  object: "page",
  entry: [{ id: pageId, time, messaging: [{ sender: { id: PSID }, recipient: { id: pageId }, timestamp, message }] }],
});

export const messengerText = (text = "hello, world!", mid = "mid.1457764197618:41d102a3e1ae206a38", pageId = PAGE_ID) =>
  pageMessage(pageId, 1458692752478, 1458692752478, { mid, text });

export const messengerAttachment = (url: string, mid = "mid.$cAAJdkrCd2ORnva8ErFhjGm0X_Q_c") =>
  pageMessage(PAGE_ID, 1518479195594, 1518479195308, { mid, attachments: [{ type: "image", payload: { url } }] });

/** The Page's own message (message_echoes), a delivery and a read: none is a person writing. */
export const messengerNoise = {
  object: "page",
  entry: [
    {
      id: PAGE_ID,
      time: 1570053170926,
      messaging: [
        {
          sender: { id: PAGE_ID },
          recipient: { id: PSID },
          timestamp: 1457764197627,
          message: {
            is_echo: true,
            app_id: 1517776481860111,
            metadata: "<DEVELOPER_DEFINED_METADATA_STRING>",
            mid: "mid.1457764197618:41d102a3e1ae206a39",
            text: "hi",
          },
        },
        {
          sender: { id: PSID },
          recipient: { id: PAGE_ID },
          delivery: { mids: ["mid.1458668856218:ed81099e15d3f4f233"], watermark: 1458668856253 },
        },
        {
          sender: { id: PSID },
          recipient: { id: PAGE_ID },
          timestamp: 1458668856463,
          read: { watermark: 1458668856253 },
        },
      ],
    },
  ],
};

export const IGSID = "1254459154682919";
const IG_MID =
  "aWdfZAG1faXRlbToxOklHTWVzc2FnZAUlEOjE3ODQxNDA1ODIyMzA0OTE0OjM0MDI4MjM2Njg0MTcxMDMwMTI0NDI3NjAxMjQ3OTkzOTQ3MjM2";
/** Meta's "instagram" webhook around one message of the person (IGSID) to our account. */
export const instagramMessage = (message: object) => ({
  object: "instagram",
  entry: [
    {
      id: IG_ID,
      time: 1502905976963,
      messaging: [{ sender: { id: IGSID }, recipient: { id: IG_ID }, timestamp: 1502905976377, message }],
    },
  ],
});
export const instagramText = (text: string, mid = IG_MID) => instagramMessage({ mid, text });

/** The Cloud API's webhook of the "messages" field for our number, `value` after its product and metadata. */
const whatsappField = (value: object) => ({
  object: "whatsapp_business_account",
  entry: [
    {
      id: WABA_ID,
      changes: [
        {
          value: {
            messaging_product: "whatsapp",
            metadata: { display_phone_number: "15550783881", phone_number_id: PHONE_NUMBER_ID },
            ...value,
          },
          field: "messages",
        },
      ],
    },
  ],
});

/** Messages of Sheena Nelson's (16505551234) in one change, with her profile's name. */
export const whatsappMessages = (messages: object[]) =>
  whatsappField({ contacts: [{ profile: { name: "Sheena Nelson" }, wa_id: "16505551234" }], messages });

/** One message of Sheena Nelson's. */
export const whatsappMessage = (message: object) => whatsappMessages([message]);

export const whatsappText = (
  body = "Does it come in another color?",
  id = "wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQTRBNjU5OUFFRTAzODEwMTQ0RgA=",
) => whatsappMessage({ from: "16505551234", id, timestamp: "1749416383", type: "text", text: { body } });

/** An image (a media id the stand-in serves) with its caption. */
export const whatsappImage = (id = "wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQUNCNDU3MEQzNTQ3RjQ2NDEzMwA=") =>
  whatsappMessage({
    from: "16505551234",
    id,
    timestamp: "1744344496",
    type: "image",
    image: {
      caption: "This is the new one",
      mime_type: "image/png",
      sha256: "29ed500fa64eb55fc19dc4124acb300e5dcca0f822a301ae99944db",
      id: MEDIA_ID,
    },
  });

/** A delivery status: the same field, no messages. */
export const whatsappStatus = whatsappField({
  statuses: [
    {
      id: "wamid.HBgLMTY1MDM4Nzk0MzkVAgARGBI3MTE5MjVBOTE3MDk5QUVFM0YA",
      status: "delivered",
      timestamp: "1750263773",
      recipient_id: "16505551234",
      pricing: { billable: true, pricing_model: "PMP", category: "service" },
    },
  ],
});
