// Telegram's updates as events (https://core.telegram.org/bots/api#update): every kind of message a visitor sends is
// kept as its text, its files or a placeholder naming it; edits as their new text, reactions as the emoji added; the
// Bot API's service messages (members joining, pins, topics...) are no one writing and left out on purpose
// (docs/decisions.md, "Messaging channels").
import type { Message, Update } from "grammy/types";
import { z } from "zod";
import type { InboundAttachment, InboundEvent } from "./types";

// The fields `readUpdate` relies on, with the types the Bot API documents; every object keeps the rest (loose). An
// update Telegram signed but shaped otherwise is refused with the field named (a 400), rather than read half.
const user = z.looseObject({ id: z.number(), is_bot: z.boolean(), first_name: z.string() });
const chat = z.looseObject({ id: z.number(), type: z.string() });
const message = z.looseObject({ chat, from: user.optional(), date: z.number(), edit_date: z.number().optional() });
const reaction = z.looseObject({ type: z.string() });
const UpdateShape = z.looseObject({
  update_id: z.number(),
  message: message.optional(),
  edited_message: message.optional(),
  message_reaction: z
    .looseObject({
      chat,
      user: user.optional(),
      date: z.number(),
      old_reaction: z.array(reaction),
      new_reaction: z.array(reaction),
    })
    .optional(),
  callback_query: z
    .looseObject({
      id: z.string(),
      from: user,
      data: z.string().optional(),
      message: z.looseObject({ chat }).optional(),
    })
    .optional(),
});

/** What is wrong with an update's shape (the first field off, by its path), or null when `readUpdate` can read it. */
export function updateProblem(update: unknown): string | null {
  const read = UpdateShape.safeParse(update);
  if (read.success) return null;
  const issue = read.error.issues[0];
  return `${issue.path.join(".") || "the update"}: ${issue.message}`;
}

const fullName = (from: { first_name: string; last_name?: string }) =>
  [from.first_name, from.last_name].filter(Boolean).join(" ");

function filesOf(message: Message): { attachments: InboundAttachment[]; said: string } {
  const attachments: InboundAttachment[] = [];
  let said = "";
  if (message.photo?.length)
    attachments.push({
      kind: "image",
      ref: message.photo[message.photo.length - 1].file_id,
      contentType: "image/jpeg",
    });
  if (message.document)
    attachments.push({
      kind: "file",
      ref: message.document.file_id,
      filename: message.document.file_name,
      contentType: message.document.mime_type,
    });
  if (message.audio)
    attachments.push({
      kind: "audio",
      ref: message.audio.file_id,
      filename: message.audio.file_name,
      contentType: message.audio.mime_type,
    });
  if (message.voice)
    attachments.push({
      kind: "audio",
      ref: message.voice.file_id,
      contentType: message.voice.mime_type ?? "audio/ogg",
    });
  if (message.video)
    attachments.push({
      kind: "video",
      ref: message.video.file_id,
      filename: message.video.file_name,
      contentType: message.video.mime_type,
    });
  if (message.video_note)
    attachments.push({ kind: "video", ref: message.video_note.file_id, contentType: "video/mp4" });
  if (message.sticker) {
    // Said by its emoji, what the person meant; a still one is also its WebP picture, a sticker attachment (an animated
    // or video one is a file no one here can show).
    said = `[sticker ${message.sticker.emoji ?? ""}]`.replace(" ]", "]");
    if (!message.sticker.is_animated && !message.sticker.is_video)
      attachments.push({
        kind: "sticker",
        ref: message.sticker.file_id,
        contentType: "image/webp",
        filename: "sticker.webp",
      });
  }
  if (message.location) said = `[location ${message.location.latitude}, ${message.location.longitude}]`;
  if (message.venue) {
    const { title, address, location } = message.venue;
    said = `[venue] ${[title, address].filter(Boolean).join(", ")} (${location.latitude}, ${location.longitude})`;
  }
  if (message.contact) said = `[contact ${message.contact.first_name} ${message.contact.phone_number}]`;
  if (message.poll) said = `[poll] ${message.poll.question} (${message.poll.options.map((o) => o.text).join(" / ")})`;
  if (message.dice) said = `[dice ${message.dice.emoji} ${message.dice.value}]`;
  if (message.game) said = `[game] ${message.game.title}`;
  if (message.story) said = "[story]";
  return { attachments, said };
}

/**
 * What a message is when it is no one writing: a member joining or leaving, a title or photo changed, a pin, a topic
 * or a video chat opened... (the Bot API's service messages): left out on purpose.
 */
const SERVICE = new Set([
  "new_chat_members",
  "left_chat_member",
  "new_chat_title",
  "new_chat_photo",
  "delete_chat_photo",
  "group_chat_created",
  "supergroup_chat_created",
  "channel_chat_created",
  "message_auto_delete_timer_changed",
  "migrate_to_chat_id",
  "migrate_from_chat_id",
  "pinned_message",
  "connected_website",
  "write_access_allowed",
  "proximity_alert_triggered",
  "boost_added",
  "chat_background_set",
  "forum_topic_created",
  "forum_topic_edited",
  "forum_topic_closed",
  "forum_topic_reopened",
  "general_forum_topic_hidden",
  "general_forum_topic_unhidden",
  "giveaway_created",
  "giveaway_completed",
  "video_chat_scheduled",
  "video_chat_started",
  "video_chat_ended",
  "video_chat_participants_invited",
]);

/** The fields every message has, whatever it carries: a message with nothing else is no one's writing. */
const ENVELOPE = new Set([
  "message_id",
  "message_thread_id",
  "from",
  "sender_chat",
  "sender_boost_count",
  "sender_business_bot",
  "business_connection_id",
  "date",
  "chat",
  "forward_origin",
  "is_topic_message",
  "is_automatic_forward",
  "reply_to_message",
  "external_reply",
  "quote",
  "reply_to_story",
  "via_bot",
  "edit_date",
  "has_protected_content",
  "is_from_offline",
  "media_group_id",
  "author_signature",
  "entities",
  "caption_entities",
  "show_caption_above_media",
  "has_media_spoiler",
  "link_preview_options",
  "effect_id",
  "reply_markup",
]);

/**
 * What a message carries that we do not read (a kind newer than this code, a checklist, a giveaway...), named so the
 * conversation shows that something came; null for a service message or one with nothing more.
 */
function unknownKind(message: Message): string | null {
  const fields = Object.keys(message).filter((k) => !ENVELOPE.has(k));
  if (!fields.length || fields.some((k) => SERVICE.has(k))) return null;
  return `[Telegram message: ${fields[0]}]`;
}

/** The chat an update is of: the conversation's key, and the group when it is one. */
function chatOf(chat: Message["chat"]): Pick<InboundEvent, "threadKey" | "group"> {
  const group = chat.type === "group" || chat.type === "supergroup";
  return {
    threadKey: String(chat.id),
    ...(group ? { group: { id: String(chat.id), name: "title" in chat ? chat.title : undefined } } : {}),
  };
}

/**
 * A reaction set on a message (message_reaction), as the emoji added; a reaction taken back, or one of a chat
 * rather than a person, says nothing new.
 */
function reactionOf(update: Update): InboundEvent[] {
  const changed = update.message_reaction!;
  const user = changed.user;
  const shown = (r: (typeof changed.new_reaction)[number]) =>
    r.type === "emoji" ? r.emoji : r.type === "custom_emoji" ? "custom emoji" : "paid";
  const before = new Set(changed.old_reaction.map(shown));
  const added = changed.new_reaction.map(shown).filter((r) => !before.has(r));
  if (!user || user.is_bot || !added.length) return [];
  return [
    {
      eventId: String(update.update_id),
      ...chatOf(changed.chat),
      sender: { id: String(user.id), name: fullName(user) || user.username },
      text: `[reaction ${added.join(" ")}]`,
      attachments: [],
      reaction: added.join(" "),
      at: changed.date * 1000,
    },
  ];
}

/** A tap on a rating button (callback_query with `csat:1`..`csat:5`) as an event carrying the rating. */
function ratingOf(update: Update): InboundEvent | null {
  const query = update.callback_query;
  const rating = Number(/^csat:([1-5])$/.exec(query?.data ?? "")?.[1] ?? NaN);
  const chat = query?.message?.chat;
  if (!query || !chat || query.from.is_bot || !(rating >= 1)) return null;
  return {
    eventId: String(update.update_id),
    threadKey: String(chat.id),
    sender: { id: String(query.from.id), name: fullName(query.from) || query.from.username },
    text: String(rating),
    attachments: [],
    rating,
    tapId: query.id,
  };
}

/** The visitor's messages in an update: none, or one. */
export function readUpdate(update: Update): InboundEvent[] {
  const rated = ratingOf(update);
  if (rated) return [rated];
  if (update.message_reaction) return reactionOf(update);
  // Channel posts and callback queries other than ratings: not messages of a visitor.
  const edited = update.edited_message;
  const message = update.message ?? edited;
  if (!message?.from || message.from.is_bot) return [];
  const written = message.text ?? message.caption;
  // An edit says its new text (its files came with the message); a live location moving, an edit too, every few
  // seconds, is no one writing.
  if (edited) return written ? [eventOf(update, message, `[edited] ${written}`, [])] : [];
  const { attachments, said } = filesOf(message);
  const text = written ?? (said || (attachments.length ? "" : (unknownKind(message) ?? "")));
  if (!text && !attachments.length) return [];
  return [eventOf(update, message, text, attachments)];
}

/** A message of a person (`from`) as an event: the update's id, the chat, what it says. */
function eventOf(update: Update, message: Message, text: string, attachments: InboundAttachment[]): InboundEvent {
  const from = message.from!;
  return {
    eventId: String(update.update_id),
    ...chatOf(message.chat),
    sender: { id: String(from.id), name: fullName(from) || from.username },
    text,
    attachments,
    at: (message.edit_date ?? message.date) * 1000,
  };
}
