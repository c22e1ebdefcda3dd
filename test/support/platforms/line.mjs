// LINE Messaging API stand-in (stand-in.mjs), for both LINE_API_ORIGIN and LINE_DATA_API_ORIGIN.
// It answers as https://developers.line.biz/en/reference/messaging-api/ documents, and refuses
// what LINE refuses, with LINE's error body `{message, details: [{message, property}]}`:
// - every request needs `Authorization: Bearer <channel access token>` (the account key);
// - reply/push: 1 to 5 messages, text of 1 to 5000 characters, at most 13 quick reply items with
//   labels of at most 20 characters (grapheme clusters, as LINE counts an action's), https image URLs;
//   push `to` a user, group or room id; a reply token works once; a push's X-Line-Retry-Key is a UUID and a
//   second request with an accepted key answers 409 with what the first one sent;
// - loading animation: a user id only, 5 to 60 seconds in steps of 5 (202);
// - profiles: displayName `User <last 6 characters of the userId>`, pictureUrl on the stand-in; a
//   group's summary: groupName `Group <last 6 characters of the groupId>`;
// - content: a small real PNG for any message id (LINE serves the bytes with their type);
// - webhook endpoint: an https URL, kept per account; `active` true.
// `sign({channelSecret, body})` signs the body as LINE does: base64 HMAC-SHA256 under the channel secret.
import { createHmac } from "node:crypto";
import { deflateSync } from "node:zlib";

/** The stand-in's profile of a user: what the tests expect as the contact's name. */
export const displayNameOf = (userId) => `User ${String(userId).slice(-6)}`;
/** The stand-in's name of a group (its summary). */
export const groupNameOf = (groupId) => `Group ${String(groupId).slice(-6)}`;

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (bytes) => {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type, data) => {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
};
/** A 4x4 RGB PNG (a red and green checkerboard), built by the PNG specification's rules. */
export const PNG = (() => {
  const size = 4;
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit, truecolour, deflate, no filter, no interlace
  const rows = [];
  for (let y = 0; y < size; y++) {
    rows.push(0); // filter: none
    for (let x = 0; x < size; x++) rows.push(...((x + y) % 2 ? [0, 160, 0] : [220, 0, 0]));
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(Buffer.from(rows))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
})();

const refuse = (status, message, details) => ({ status, body: details?.length ? { message, details } : { message } });
const invalid = (details) => refuse(400, `The request body has ${details.length} error(s)`, details);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CHAT_ID = /^[UCR][0-9a-f]{32}$/;
let sequence = 461230966842064897n;
const nextId = () => String(sequence++);
/** Reply tokens are LINE's, once each, whichever account uses them. */
const usedReplyTokens = new Set();

/** A string of min to max characters (UTF-16 units, as LINE counts a message's text). */
const between = (s, min, max) => typeof s === "string" && s.length >= min && s.length <= max;
const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });
/** A string of min to max grapheme clusters, as LINE counts an action's label and text
 * (https://developers.line.biz/en/docs/messaging-api/text-character-count/). */
const betweenGraphemes = (s, min, max) => {
  if (typeof s !== "string") return false;
  const n = [...segmenter.segment(s)].length;
  return n >= min && n <= max;
};

function messageErrors(messages) {
  if (!Array.isArray(messages) || messages.length < 1 || messages.length > 5) {
    return [{ message: "Size must be between 1 and 5", property: "messages" }];
  }
  const errors = [];
  messages.forEach((m, i) => {
    const at = `messages[${i}]`;
    if (m?.type === "text") {
      if (!between(m.text, 1, 5000))
        errors.push({ message: "Length must be between 1 and 5000", property: `${at}.text` });
    } else if (m?.type === "image") {
      for (const field of ["originalContentUrl", "previewImageUrl"]) {
        if (typeof m[field] !== "string" || !m[field].startsWith("https://"))
          errors.push({ message: "must be a valid HTTPS URL", property: `${at}.${field}` });
      }
    } else
      errors.push({
        message: "must be one of the message types this stand-in knows (text, image)",
        property: `${at}.type`,
      });
    const items = m?.quickReply?.items;
    if (m?.quickReply !== undefined) {
      if (!Array.isArray(items) || items.length < 1 || items.length > 13) {
        errors.push({ message: "Size must be between 1 and 13", property: `${at}.quickReply.items` });
      } else
        items.forEach((item, j) => {
          const action = item?.action;
          const p = `${at}.quickReply.items[${j}].action`;
          if (item?.type !== "action" || !action) errors.push({ message: "must be specified", property: p });
          else if (!betweenGraphemes(action.label, 1, 20))
            errors.push({ message: "Length must be between 1 and 20", property: `${p}.label` });
          else if (action.type === "message" && !betweenGraphemes(action.text, 1, 300)) {
            errors.push({ message: "Length must be between 1 and 300", property: `${p}.text` });
          }
        });
    }
  });
  return errors;
}

const sent = (messages) => ({ sentMessages: messages.map(() => ({ id: nextId(), quoteToken: `q${nextId()}` })) });

/** @type {import("./stand-in.mjs").Platform} */
export const platform = {
  key: (req) => /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1] ?? null,

  route(req, account) {
    const headers = { "x-line-request-id": crypto.randomUUID() };
    const answer = (status, body, extra = {}) => ({ status, body, headers: { ...headers, ...extra } });
    if (!req.headers.authorization?.startsWith("Bearer ")) {
      return refuse(
        401,
        "Authorization header required. Must follow the scheme, 'Authorization: Bearer <ACCESS TOKEN>'",
      );
    }
    const token = req.headers.authorization.slice(7);
    const { method, path, body } = req;
    let m;

    if (method === "GET" && path === "/v2/bot/info") {
      const userId = `U${createHmac("md5", "bot").update(token).digest("hex")}`;
      const pictureUrl = "https://profile.line-scdn.net/stand-in-bot";
      return answer(200, {
        userId,
        basicId: "@123abcde",
        displayName: "Stand-in bot",
        pictureUrl,
        chatMode: "bot",
        markAsReadMode: "auto",
      });
    }
    if (path === "/v2/bot/channel/webhook/endpoint") {
      if (method === "GET") {
        if (!account.data.endpoint) return refuse(404, "Webhook endpoint is not set");
        return answer(200, { endpoint: account.data.endpoint, active: account.data.webhookActive ?? true });
      }
      if (method === "PUT") {
        let url = null;
        try {
          url = new URL(body?.endpoint);
        } catch {
          url = null;
        }
        if (url?.protocol !== "https:")
          return invalid([{ message: "Invalid webhook endpoint URL", property: "endpoint" }]);
        account.data.endpoint = body.endpoint;
        return answer(200, {});
      }
    }
    if (
      method === "GET" &&
      (m = /^\/v2\/bot\/(?:profile|group\/([^/]+)\/member|room\/([^/]+)\/member)\/([^/]+)$/.exec(path))
    ) {
      const userId = decodeURIComponent(m[3]);
      if (!/^U[0-9a-f]{32}$/.test(userId)) return refuse(404, "Not found");
      const found = {
        displayName: displayNameOf(userId),
        userId,
        pictureUrl: `https://profile.line-scdn.net/${userId}`,
      };
      return answer(200, m[1] || m[2] ? found : { ...found, language: "en", statusMessage: "Hello, LINE!" });
    }
    if (method === "GET" && (m = /^\/v2\/bot\/group\/([^/]+)\/summary$/.exec(path))) {
      const groupId = decodeURIComponent(m[1]);
      if (!/^C[0-9a-f]{32}$/.test(groupId)) return refuse(404, "Not found");
      return answer(200, {
        groupId,
        groupName: groupNameOf(groupId),
        pictureUrl: `https://profile.line-scdn.net/${groupId}`,
      });
    }
    if (method === "GET" && (m = /^\/v2\/bot\/message\/([^/]+)\/content$/.exec(path))) {
      if (!/^\d+$/.test(m[1])) return refuse(404, "Not found");
      return answer(200, PNG, { "content-type": "image/png", "content-length": String(PNG.length) });
    }
    if (method === "POST" && path === "/v2/bot/message/reply") {
      if (typeof body?.replyToken !== "string" || !body.replyToken)
        return invalid([{ message: "Must not be empty", property: "replyToken" }]);
      const errors = messageErrors(body.messages);
      if (errors.length) return invalid(errors);
      if (usedReplyTokens.has(body.replyToken)) return refuse(400, "Invalid reply token");
      usedReplyTokens.add(body.replyToken);
      return answer(200, sent(body.messages));
    }
    if (method === "POST" && path === "/v2/bot/message/push") {
      const key = req.headers["x-line-retry-key"];
      if (key !== undefined && !UUID.test(key))
        return invalid([{ message: "Invalid retry key", property: "X-Line-Retry-Key" }]);
      if (typeof body?.to !== "string" || !CHAT_ID.test(body.to))
        return invalid([{ message: "Invalid to", property: "to" }]);
      const errors = messageErrors(body.messages);
      if (errors.length) return invalid(errors);
      account.data.retryKeys ??= {};
      const accepted = key && account.data.retryKeys[key];
      if (accepted) {
        const body = { message: "The retry key is already accepted", sentMessages: accepted.sentMessages };
        return answer(409, body, { "x-line-accepted-request-id": accepted.requestId });
      }
      const result = sent(body.messages);
      if (key) account.data.retryKeys[key] = { ...result, requestId: headers["x-line-request-id"] };
      return answer(200, result);
    }
    if (method === "POST" && path === "/v2/bot/chat/loading/start") {
      if (typeof body?.chatId !== "string" || !/^U[0-9a-f]{32}$/.test(body.chatId))
        return invalid([{ message: "Invalid chatId", property: "chatId" }]);
      const seconds = body.loadingSeconds ?? 20;
      if (!Number.isInteger(seconds) || seconds < 5 || seconds > 60 || seconds % 5) {
        return invalid([{ message: "must be a multiple of 5 between 5 and 60", property: "loadingSeconds" }]);
      }
      return answer(202, {});
    }
    return refuse(404, "Not found");
  },

  sign({ channelSecret, body }) {
    const text = typeof body === "string" ? body : JSON.stringify(body);
    const signature = createHmac("sha256", String(channelSecret)).update(text, "utf8").digest("base64");
    return { headers: { "x-line-signature": signature, "content-type": "application/json" }, body: text };
  },
};
