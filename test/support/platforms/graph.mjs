// Meta's Graph API on loopback (GRAPH_API_ORIGIN in tests): the Messenger Platform's Send API for
// Messenger and Instagram, the WhatsApp Cloud API, profiles, Page and phone number look-ups, media,
// and Meta's webhook signature (stand-in.mjs has what every stand-in shares).
// - The account is the access token (Bearer header or `access_token`); none is Graph's 400, code 104.
// - What we send is checked as Meta documents it: a bad shape is a 400 with Graph's
//   `{error: {message, type, code, fbtrace_id}}` ("(#100) ..."), e.g. a text over the limit.
// - Files: `/cdn/<name>.png|.pdf` stands for Facebook's CDN (attachment URLs in Messenger and
//   Instagram events, no token); WhatsApp media ids in MEDIA answer `GET /{version}/{id}` with a
//   URL back to this server (`/whatsapp_business/attachments/?mid=`), fetched with the token.
// - sign({appSecret, body}): the body as Meta sends it (non-ASCII as \uXXXX, "/" as "\/") with its
//   `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the body with the app secret>`.
// - verification({verifyToken, challenge?}): the GET Meta sends when the Callback URL and Verify token are saved in
//   the app's Webhooks ("Verification Requests"): `hub.mode=subscribe`, `hub.challenge` (an int, to be answered back
//   as the body) and `hub.verify_token` (the token as typed there), unsigned.
import crypto from "node:crypto";

/** A 1×1 PNG and a one-page PDF: the bytes every stand-in file has. */
export const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);
export const PDF = Buffer.from(
  "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[]/Count " +
    "0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n",
);

/** WhatsApp media ids the stand-in knows (what a webhook's image.id or document.id names). */
export const MEDIA = {
  1045263457620861: { mime_type: "image/png", bytes: PNG },
  3902734929935115: { mime_type: "application/pdf", bytes: PDF },
};

const FILES = { png: ["image/png", PNG], pdf: ["application/pdf", PDF] };

const graphError = (message, code = 100, status = 400, type = "OAuthException") => ({
  status,
  body: { error: { message, type, code, fbtrace_id: `A${crypto.randomBytes(8).toString("hex")}` } },
});
const invalid = (detail) => graphError(`(#100) ${detail}`);

/** @param {import("./stand-in.mjs").StandInRequest} req */
function token(req) {
  const bearer = /^Bearer\s+(.+)$/i.exec(String(req.headers.authorization ?? ""));
  return (
    bearer?.[1] ?? req.query.access_token ?? (typeof req.body === "object" ? req.body?.access_token : undefined) ?? null
  );
}

const codePoints = (s) => [...String(s)].length;

/** Messenger's and Instagram's Send API body: the first thing wrong with it, or null. */
function messengerProblem(body) {
  if (!body?.recipient?.id) return "The parameter recipient is required";
  const actions = ["typing_on", "typing_off", "mark_seen"];
  if (body.sender_action)
    return actions.includes(body.sender_action) ? null : `Param sender_action must be one of {${actions.join(", ")}}`;
  if (!["RESPONSE", "UPDATE", "MESSAGE_TAG"].includes(body.messaging_type))
    return "Param messaging_type must be one of {RESPONSE, UPDATE, MESSAGE_TAG}";
  const message = body.message;
  if (!message || (message.text === undefined && !message.attachment))
    return "The parameter message[text] or message[attachment] is required";
  if (message.text !== undefined) {
    if (typeof message.text !== "string" || !message.text.trim())
      return "Param message[text] must be a non-empty UTF-8 encoded string";
    if (codePoints(message.text) > 2000) return "Length of param message[text] must be less than or equal to 2000";
  }
  if (message.attachment) {
    const types = ["image", "video", "audio", "file"];
    if (!types.includes(message.attachment.type))
      return `Param message[attachment][type] must be one of {${types.join(", ")}, template}`;
    if (typeof message.attachment.payload?.url !== "string")
      return "The parameter message[attachment][payload][url] is required";
  }
  const replies = message.quick_replies;
  if (replies !== undefined) {
    if (!Array.isArray(replies) || replies.length > 13)
      return "param message[quick_replies] must have at most 13 elements";
    for (const r of replies) {
      if (r.content_type !== "text")
        return "Param message[quick_replies][content_type] must be one of {text, user_phone_number, user_email}";
      if (!r.title || codePoints(r.title) > 20)
        return "Param message[quick_replies][title] must be a non-empty string of at most 20 characters";
      if (String(r.payload ?? "").length > 1000)
        return "Param message[quick_replies][payload] must be at most 1000 characters";
    }
  }
  return null;
}

/** The WhatsApp Cloud API's `/messages` body: the first thing wrong with it, or null. */
function whatsappProblem(body) {
  if (body.messaging_product !== "whatsapp") return "The parameter messaging_product is required.";
  if (!/^\+?\d{6,15}$/.test(String(body.to ?? ""))) return "Param to must be a WhatsApp user's phone number";
  switch (body.type) {
    case "text":
      if (!body.text?.body?.trim()) return "Param text['body'] is required";
      return codePoints(body.text.body) > 4096 ? "Param text['body'] must be at most 4096 characters long." : null;
    case "interactive": {
      const i = body.interactive;
      if (i?.type !== "button")
        return "Param interactive['type'] must be one of {button, list, product, product_list, cta_url, flow}";
      if (!i.body?.text || codePoints(i.body.text) > 1024)
        return "Param interactive['body']['text'] must be 1 to 1024 characters long";
      const buttons = i.action?.buttons ?? [];
      if (!buttons.length || buttons.length > 3)
        return "Param interactive['action']['buttons'] must have 1 to 3 elements";
      const titles = new Set();
      const ids = new Set();
      for (const b of buttons) {
        const param = "Param interactive['action']['buttons'][]['reply']";
        if (b.type !== "reply" || !b.reply?.id || String(b.reply.id).length > 256)
          return `${param}['id'] must be 1 to 256 characters`;
        if (!b.reply.title || codePoints(b.reply.title) > 20) return `${param}['title'] must be 1 to 20 characters`;
        if (titles.has(b.reply.title) || ids.has(b.reply.id)) return "Buttons' titles and ids must be unique";
        titles.add(b.reply.title);
        ids.add(b.reply.id);
      }
      return null;
    }
    case "image":
    case "video":
    case "audio":
    case "document":
      return body[body.type]?.link || body[body.type]?.id
        ? null
        : `Param ${body.type}['link'] or ${body.type}['id'] is required`;
    default:
      return `Param type must be one of {text, interactive, image, video, audio, document, ...}, not ${body.type}`;
  }
}

const newId = (prefix) => `${prefix}${crypto.randomBytes(18).toString("base64url")}`;

/** @type {import("./stand-in.mjs").Platform} */
export const platform = {
  key: token,

  route(req) {
    const origin = `http://${req.headers.host}`;
    const cdn = /^\/cdn\/[\w.-]+\.(png|pdf)$/.exec(req.path);
    if (cdn && req.method === "GET") {
      const [type, bytes] = FILES[cdn[1]];
      return { headers: { "content-type": type }, body: bytes };
    }
    if (!token(req)) return graphError("An access token is required to request this resource.", 104);
    if (req.path === "/whatsapp_business/attachments/") {
      // Meta's lookaside answers an error page to a request without a User-Agent (what clients found, not documented).
      if (!req.headers["user-agent"])
        return { status: 404, body: "<html><body>Sorry, this content isn't available right now</body></html>" };
      const media = MEDIA[req.query.mid];
      return media
        ? { headers: { "content-type": media.mime_type }, body: media.bytes }
        : { status: 404, body: "Not Found" };
    }
    const versioned = /^\/v\d+\.\d+\/(.+)$/.exec(req.path);
    // Unversioned calls get Graph's oldest version: the module pins one, and the stand-in holds it to it.
    if (!versioned)
      return graphError("Unknown path components: the stand-in expects a pinned version (/vNN.N/...)", 2500);
    const [id, edge, ...rest] = versioned[1].split("/");
    const fields = String(req.query.fields ?? "")
      .split(",")
      .filter(Boolean);

    if (req.method === "GET" && !edge) {
      if (id === "me") return { body: { id: "104060952457889", name: "Stand-in Shop" } };
      if (fields.includes("display_phone_number"))
        return { body: { display_phone_number: "+1 555-010-0199", verified_name: "Stand-in Shop", id } };
      if (fields.includes("first_name"))
        return { body: { first_name: "Ada", last_name: "Lovelace", profile_pic: `${origin}/cdn/ada.png`, id } };
      if (fields.includes("profile_pic"))
        return { body: { name: "Ada Lovelace", username: "ada.codes", profile_pic: `${origin}/cdn/ada.png`, id } };
      if (fields.includes("username")) return { body: { username: "standin.shop", name: "Stand-in Shop", id } };
      if (fields.includes("name")) return { body: { name: "Stand-in Shop", id } };
      const media = MEDIA[id];
      if (!media) {
        const why = "does not exist, cannot be loaded due to missing permissions, or does not support this operation";
        return invalid(`Unsupported get request. Object with ID '${id}' ${why}.`);
      }
      const hash = crypto.createHash("sha256").update(media.bytes).digest("hex");
      return {
        body: {
          messaging_product: "whatsapp",
          url:
            `${origin}/whatsapp_business/attachments/?mid=${id}` +
            `&ext=${Math.floor(Date.now() / 1000) + 300}&hash=${hash.slice(0, 16)}`,
          mime_type: media.mime_type,
          sha256: hash,
          file_size: String(media.bytes.length),
          id,
        },
      };
    }
    if (req.method === "POST" && edge === "subscribed_apps" && !rest.length) return { body: { success: true } };
    if (req.method === "POST" && edge === "messages" && !rest.length) {
      const body = req.body;
      if (body?.messaging_product !== undefined) {
        const problem = whatsappProblem(body);
        if (problem) return invalid(problem);
        const contacts = [{ input: body.to, wa_id: String(body.to).replace(/^\+/, "") }];
        return { body: { messaging_product: "whatsapp", contacts, messages: [{ id: newId("wamid.") }] } };
      }
      const problem = messengerProblem(body);
      if (problem) return invalid(problem);
      return {
        body: body.sender_action
          ? { recipient_id: body.recipient.id }
          : { recipient_id: body.recipient.id, message_id: newId("m_") },
      };
    }
    return graphError(`Unknown path components: /${versioned[1]}`, 2500);
  },

  verification({ verifyToken, challenge = String(crypto.randomInt(1e9, 2 ** 31)) }) {
    const query = new URLSearchParams({
      "hub.mode": "subscribe",
      "hub.challenge": challenge,
      "hub.verify_token": verifyToken,
    });
    return { method: "GET", query: query.toString(), headers: {}, body: "", challenge };
  },

  sign({ appSecret, body }) {
    // A string is signed as it is (a sample's exact bytes); an object is written as Meta writes it.
    const text =
      typeof body === "string"
        ? body
        : JSON.stringify(body)
            .replace(/\//g, "\\/")
            .replace(/[^\0-~]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
    const signature = crypto.createHmac("sha256", appSecret).update(text).digest("hex");
    return {
      headers: { "content-type": "application/json", "x-hub-signature-256": `sha256=${signature}` },
      body: text,
    };
  },
};
