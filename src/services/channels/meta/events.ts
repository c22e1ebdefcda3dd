// Meta's webhook events as its docs describe them: Messenger's and Instagram's `entry[].messaging[]`,
// WhatsApp's `entry[].changes[].value` with messages, contacts and statuses. Only the fields we read
// are named; every object keeps the rest (loose), so an event kind we do not know still parses and
// reaches the adapter, which passes it over as before. A field of the wrong type reads as absent, and
// an item a list cannot read is left out of that list alone, never the whole delivery: one odd item
// from Meta must not cost the messages beside it.
import { z } from "zod";
import { badRequest } from "../../../lib/errors";

/** Graph ids are strings; some older payloads (and app ids) carry them as numbers. */
const id = z.union([z.string(), z.number()]).transform(String);

/** A field read when it has the documented type, absent otherwise. */
const maybe = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);

/** A flag Meta sets to true; any other value counts as it always has, by its truthiness. */
const flag = z.unknown().optional().transform(Boolean);

/** The items of a list that read as `item`; a list that is not one has none. */
const listOf = <T extends z.ZodType>(item: T) =>
  z
    .unknown()
    .optional()
    .transform((value) =>
      (Array.isArray(value) ? value : []).flatMap((entry) => {
        const read = item.safeParse(entry);
        return read.success ? [read.data] : [];
      }),
    );

const titled = z.looseObject({ title: maybe(z.string()) });

const messagingAttachment = z.looseObject({
  type: maybe(z.string()),
  url: maybe(z.string()),
  title: maybe(z.string()),
  payload: maybe(
    z
      .looseObject({
        url: maybe(z.string()),
        title: maybe(z.string()),
        /** A product shared from the Page's shop (template). */
        product: maybe(z.looseObject({ elements: listOf(titled) })),
        /** A location (the older Messenger's). */
        coordinates: maybe(z.looseObject({ lat: z.unknown().optional(), long: z.unknown().optional() })),
      })
      .nullable(),
  ),
});

export type MessagingAttachment = z.output<typeof messagingAttachment>;

const messagingMessage = z.looseObject({
  mid: maybe(id),
  text: maybe(z.string()),
  is_echo: flag,
  is_deleted: flag,
  is_unsupported: flag,
  quick_reply: maybe(z.looseObject({ payload: z.unknown().optional() })),
  attachments: listOf(messagingAttachment),
});

/** One `messaging[]` item: a message, a postback, an edit, a reaction, or a kind we pass over (delivery, read, ...). */
const messagingItem = z.looseObject({
  sender: maybe(z.looseObject({ id: maybe(id) })),
  timestamp: maybe(z.number()),
  message: maybe(messagingMessage),
  postback: maybe(z.looseObject({ mid: maybe(id), payload: z.unknown().optional(), title: maybe(z.string()) })),
  message_edit: maybe(z.looseObject({ mid: maybe(id), text: maybe(z.string()), num_edit: z.unknown().optional() })),
  reaction: maybe(
    z.looseObject({ mid: maybe(id), action: maybe(z.string()), emoji: maybe(z.string()), reaction: maybe(z.string()) }),
  ),
});
export type MessagingItem = z.output<typeof messagingItem>;

/** An entry whose `id` is not an id is left out: it cannot be told to be this channel's account. */
const messagingEntry = z.looseObject({ id: id.optional(), messaging: listOf(messagingItem) });

const whatsappMedia = z.looseObject({
  id: maybe(id),
  mime_type: maybe(z.string()),
  filename: maybe(z.string()),
  caption: maybe(z.string()),
});

const whatsappReply = z.looseObject({ id: z.unknown().optional(), title: maybe(z.string()) });

/** One `value.messages[]` item; `type` names the field holding its content. */
const whatsappMessage = z.looseObject({
  from: maybe(id),
  id: maybe(id),
  timestamp: maybe(z.union([z.string(), z.number()])),
  type: maybe(z.string()),
  text: maybe(z.looseObject({ body: maybe(z.string()) })),
  image: maybe(whatsappMedia),
  sticker: maybe(whatsappMedia),
  video: maybe(whatsappMedia),
  audio: maybe(whatsappMedia),
  document: maybe(whatsappMedia),
  interactive: maybe(
    z.looseObject({
      button_reply: maybe(whatsappReply),
      list_reply: maybe(whatsappReply),
      /** A WhatsApp Flow's answers (its form), as JSON. */
      nfm_reply: maybe(z.looseObject({ response_json: maybe(z.string()), body: maybe(z.string()) })),
    }),
  ),
  button: maybe(z.looseObject({ text: maybe(z.string()) })),
  contacts: listOf(
    z.looseObject({
      name: maybe(z.looseObject({ formatted_name: maybe(z.string()) })),
      phones: listOf(z.looseObject({ phone: maybe(z.string()) })),
    }),
  ),
  reaction: maybe(z.looseObject({ message_id: maybe(id), emoji: maybe(z.string()) })),
  order: maybe(
    z.looseObject({
      text: maybe(z.string()),
      product_items: listOf(
        z.looseObject({
          product_retailer_id: maybe(id),
          quantity: z.unknown().optional(),
          item_price: z.unknown().optional(),
          currency: maybe(z.string()),
        }),
      ),
    }),
  ),
  unsupported: maybe(z.looseObject({ type: maybe(z.string()) })),
  errors: listOf(z.looseObject({ title: maybe(z.string()) })),
  location: maybe(
    z.looseObject({
      latitude: z.unknown().optional(),
      longitude: z.unknown().optional(),
      name: maybe(z.string()),
      address: maybe(z.string()),
    }),
  ),
});
export type WhatsAppMessage = z.output<typeof whatsappMessage>;

/**
 * A change's `value`: the number it is for, its people and their messages (statuses come in the same
 * field without messages). A `metadata` that cannot be read leaves the change out, since it cannot be
 * told to be this channel's number.
 */
const whatsappValue = z.looseObject({
  metadata: z.looseObject({ phone_number_id: id.optional() }).optional(),
  contacts: listOf(z.looseObject({ wa_id: maybe(id), profile: maybe(z.looseObject({ name: maybe(z.string()) })) })),
  messages: listOf(whatsappMessage),
});

const whatsappChange = z.looseObject({ field: maybe(z.string()), value: whatsappValue.optional() });
const whatsappEntry = z.looseObject({ changes: listOf(whatsappChange) });

const webhook = <T extends z.ZodType>(entry: T) =>
  z.looseObject({ object: z.unknown().optional(), entry: listOf(entry) });
const messagingWebhook = webhook(messagingEntry);
const whatsappWebhook = webhook(whatsappEntry);

/** The webhook body as JSON; a body that is not is the platform's mistake, 400. */
function readJson(raw: string): object {
  try {
    const body: unknown = JSON.parse(raw);
    if (body && typeof body === "object" && !Array.isArray(body)) return body;
  } catch {
    // reported below, as for a body that is JSON but not an object
  }
  throw badRequest("The webhook body is not a JSON object.");
}

/** Messenger's and Instagram's webhook (`object` "page" or "instagram"). */
export const readMessagingWebhook = (raw: string) => messagingWebhook.parse(readJson(raw));

/** WhatsApp's webhook (`object` "whatsapp_business_account"). */
export const readWhatsAppWebhook = (raw: string) => whatsappWebhook.parse(readJson(raw));
