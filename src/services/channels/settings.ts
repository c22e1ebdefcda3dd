// A messaging inbox's connection to its platform: its settings read, written and checked
// (CONTRACT section 17), and opened for the platform's module.
import { and, eq } from "drizzle-orm";
import { inboxChannels, inboxes } from "../../db/schema";
import type { Bindings, Db } from "../../env";
import { badRequest, fieldError } from "../../lib/errors";
import { decryptSecret, encryptSecret, maskSecret, randomBase62 } from "../../lib/crypto";
import { ms } from "../../lib/time";
import { TtlCache } from "../../lib/ttl-cache";
import { isUuid } from "../../lib/ids";
import { CHANNEL_FIELDS, type CredentialField } from "./fields";
import { canSendTo, inboxAddressOf } from "./email-address";
import { platformContext } from "./http";
import { adapterFor } from "./platforms";
import {
  CHANNEL_PLATFORMS,
  PlatformError,
  type ChannelConfig,
  type ChannelPlatform,
  type Connected,
  type WebhookRefusal,
} from "./types";
import { findById } from "../../db/find";

export type ChannelRow = typeof inboxChannels.$inferSelect;

export const isChannelPlatform = (type: string): type is ChannelPlatform =>
  (CHANNEL_PLATFORMS as readonly string[]).includes(type);

/** `{origin}/channels/{platform}/{inboxId}`: where the platform posts its events. */
export const webhookUrlOf = (origin: string, platform: string, inboxId: string) =>
  `${origin}/channels/${platform}/${inboxId}`;

export interface ChannelRecord {
  inboxId: string;
  channelType: string;
  /** Every credential field; secret ones masked (`…wxyz`), null when not set. */
  credentials: Record<string, string | null>;
  webhookUrl: string;
  verifyToken: string | null;
  status: ChannelRow["status"];
  lastError: string | null;
  lastEventAt: string | null;
  webhookVerifiedAt: string | null;
  webhookRefusal: { at: string; reason: WebhookRefusal; detail: string } | null;
  updatedAt: string | null;
}

/** What to do about a refused check of the webhook URL, in the words of the platform's dashboard. */
const REFUSAL_DETAILS: Record<WebhookRefusal, string> = {
  wrong_verify_token:
    "Meta sent a hub.verify_token that is not this channel's verify token: paste the verify token shown here into " +
    "the app's Webhooks (Verify token, beside the Callback URL) and press Verify and save again.",
  bad_signature:
    "Slack's url_verification was not signed with this channel's signing secret: copy the Signing Secret again from " +
    "the app's Basic Information, save it here, then Retry the Request URL under Event Subscriptions.",
};

/** The inbox of the organization, or 404; a web or API inbox has no channel (400). */
export async function messagingInbox(db: Db, organizationId: string, inboxId: string) {
  const inbox = await findById(inboxId, "Inbox not found.", () =>
    db
      .select({ id: inboxes.id, channelType: inboxes.channelType })
      .from(inboxes)
      .where(and(eq(inboxes.id, inboxId), eq(inboxes.organizationId, organizationId))),
  );
  if (inbox.channelType === "web" || inbox.channelType === "api")
    throw badRequest(
      `A ${inbox.channelType} inbox connects to no messaging platform.`,
      undefined,
      "not_a_messaging_inbox",
    );
  return inbox;
}

export async function rowOf(db: Db, inboxId: string): Promise<ChannelRow | null> {
  const [row] = await db.select().from(inboxChannels).where(eq(inboxChannels.inboxId, inboxId));
  return row ?? null;
}

async function openSecrets(env: Bindings, row: ChannelRow): Promise<Record<string, string>> {
  return row.secretsSealed
    ? (JSON.parse(await decryptSecret(row.secretsSealed, env.ENCRYPTION_KEY)) as Record<string, string>)
    : {};
}

export function record(
  origin: string,
  inboxId: string,
  channelType: string,
  row: ChannelRow | null,
  secrets: Record<string, string>,
): ChannelRecord {
  const fields = isChannelPlatform(channelType) ? CHANNEL_FIELDS[channelType] : [];
  const credentials: Record<string, string | null> = {};
  for (const f of fields)
    credentials[f.name] = f.secret ? maskSecret(secrets[f.name]) : (row?.settings[f.name] ?? null);
  const meta = channelType === "messenger" || channelType === "instagram" || channelType === "whatsapp";
  return {
    inboxId,
    channelType,
    credentials,
    webhookUrl: webhookUrlOf(origin, channelType, inboxId),
    verifyToken: meta ? (row?.verifyToken ?? null) : null,
    status: row?.status ?? "not_connected",
    lastError: row?.lastError ?? null,
    lastEventAt: ms(row?.lastEventAt ?? null),
    webhookVerifiedAt: ms(row?.webhookVerifiedAt ?? null),
    webhookRefusal:
      row?.webhookRefusal && row.webhookRefusedAt !== null
        ? { at: ms(row.webhookRefusedAt)!, reason: row.webhookRefusal, detail: REFUSAL_DETAILS[row.webhookRefusal] }
        : null,
    updatedAt: ms(row?.updatedAt ?? null),
  };
}

export async function getChannel(
  env: Bindings,
  db: Db,
  organizationId: string,
  inboxId: string,
  origin: string,
): Promise<ChannelRecord> {
  const inbox = await messagingInbox(db, organizationId, inboxId);
  const row = await rowOf(db, inbox.id);
  return record(origin, inbox.id, inbox.channelType, row, row ? await openSecrets(env, row) : {});
}

/** Quotes a value is often copied in (a .env line, JSON, a chat message), each with its closing one. */
const QUOTES: Record<string, string> = {
  '"': '"',
  "'": "'",
  "`": "`",
  "\u201c": "\u201d",
  "\u2018": "\u2019",
  "「": "」",
};

/**
 * The credentials as the platform gave them: quotes pasted around one are dropped (the schema trimmed the
 * spaces); an id, token, secret or address with a space inside ("Bearer xoxb-...", a line break) is refused,
 * saying what to do, rather than refused later by the platform in words that do not say which field.
 */
function pasted(fields: CredentialField[], input: Record<string, string | undefined>) {
  const out = { ...input };
  for (const f of fields) {
    let value = out[f.name];
    if (value === undefined || f.words) continue;
    const close = QUOTES[value[0]];
    if (close && value.length > 1 && value.endsWith(close)) value = value.slice(1, -1).trim();
    if (/\s/.test(value))
      throw fieldError(
        f.name,
        "Has a space inside: paste the value alone, as the platform shows it (a token has no spaces).",
      );
    out[f.name] = value;
  }
  return out;
}

/**
 * An e-mail inbox's address as kept: its domain in ASCII form, entered in either (docs/decisions.md, "Messaging
 * channels", E-mail); one Cloudflare's e-mail cannot send from is refused at its field.
 */
function inboxAddress(value: string): string {
  const address = inboxAddressOf(value);
  if (!address) throw fieldError("address", "Not an e-mail address (name@example.com; the domain in any script).");
  if (!canSendTo(address))
    throw fieldError(
      "address",
      "The part before the @ must be ASCII: Cloudflare's e-mail cannot send from an internationalised address.",
    );
  return address;
}

/**
 * Saves the credentials given (a field left out keeps its value; a secret is replaced only when
 * given). Anything that changes credentials makes the channel `not_connected` until connected again.
 */
export async function saveChannel(
  env: Bindings,
  db: Db,
  organizationId: string,
  inboxId: string,
  origin: string,
  input: Record<string, string | undefined>,
): Promise<ChannelRecord> {
  const inbox = await messagingInbox(db, organizationId, inboxId);
  const platform = inbox.channelType;
  if (!isChannelPlatform(platform))
    throw badRequest(`Channels of type ${platform} are not supported yet.`, undefined, "channel_not_supported");
  const fields = CHANNEL_FIELDS[platform];
  const known = new Set(fields.map((f) => f.name));
  for (const name of Object.keys(input)) {
    if (input[name] !== undefined && !known.has(name))
      throw fieldError(name, `Not a ${platform} setting; ${platform} takes ${[...known].join(", ")}.`);
  }
  input = pasted(fields, input);
  if (platform === "email" && input.address) input = { ...input, address: inboxAddress(input.address) };
  const row = await rowOf(db, inbox.id);
  const settings = { ...(row?.settings ?? {}) };
  const secrets = row ? await openSecrets(env, row) : {};
  let changed = !row;
  for (const f of fields) {
    const value = input[f.name];
    if (value === undefined) continue;
    const target = f.secret ? secrets : settings;
    if (target[f.name] !== value) changed = true;
    if (value === "") delete target[f.name];
    else target[f.name] = value;
  }
  const sealed = Object.keys(secrets).length ? await encryptSecret(JSON.stringify(secrets), env.ENCRYPTION_KEY) : null;
  const now = Date.now();
  const values = {
    settings,
    secretsSealed: sealed,
    origin,
    ...(changed ? { status: "not_connected" as const, lastError: null } : {}),
    updatedAt: now,
  };
  await db
    .insert(inboxChannels)
    .values({
      inboxId: inbox.id,
      organizationId,
      channelType: platform,
      verifyToken: randomBase62(32),
      webhookSecret: randomBase62(48),
      createdAt: now,
      ...values,
    })
    .onConflictDoUpdate({ target: inboxChannels.inboxId, set: values });
  configs.forget(inbox.id);
  return getChannel(env, db, organizationId, inbox.id, origin);
}

/**
 * Checks the credentials with the platform (its module's `connect`), and records the outcome:
 * `connected`, or `failing` with the platform's answer (also the 400's detail).
 */
export async function connectChannel(
  env: Bindings,
  db: Db,
  organizationId: string,
  inboxId: string,
  origin: string,
): Promise<ChannelRecord & { detail: string }> {
  const inbox = await messagingInbox(db, organizationId, inboxId);
  if (!isChannelPlatform(inbox.channelType))
    throw badRequest(
      `Channels of type ${inbox.channelType} are not supported yet.`,
      undefined,
      "channel_not_supported",
    );
  const row = await rowOf(db, inbox.id);
  if (!row)
    throw badRequest(
      `Save the ${inbox.channelType} settings first (PUT inboxes/${inbox.id}/channel/).`,
      undefined,
      "channel_not_configured",
    );
  const config = await configOf(env, row);
  const missing = CHANNEL_FIELDS[inbox.channelType]
    .filter((f) => !f.optional && !config.credentials[f.name])
    .map((f) => f.name);
  if (missing.length)
    throw badRequest(`Missing ${missing.join(", ")}: set them before connecting.`, undefined, "channel_not_configured");
  let connected: string | Connected;
  try {
    connected = await (await adapterFor(inbox.channelType)).connect(platformContext(env, config));
  } catch (err) {
    if (!(err instanceof PlatformError)) throw err;
    // The platform refused the credentials themselves: say which to check, since its own words seldom do.
    const secrets = CHANNEL_FIELDS[inbox.channelType].filter((f) => f.secret).map((f) => f.name);
    const them = secrets.length > 1 ? "them" : "it";
    const refusal =
      (err.status === 401 || err.status === 403) && secrets.length
        ? `${err.message.replace(/\.$/, "")}. Check ${secrets.join(" and ")}: copy ${them} again from the platform, ` +
          "save, and connect again."
        : err.message;
    await db
      .update(inboxChannels)
      .set({ status: "failing", lastError: refusal, updatedAt: Date.now() })
      .where(eq(inboxChannels.inboxId, inbox.id));
    configs.forget(inbox.id);
    throw badRequest(refusal, undefined, "channel_connect_failed");
  }
  const { detail, settings } = typeof connected === "string" ? { detail: connected, settings: {} } : connected;
  await db
    .update(inboxChannels)
    .set({ status: "connected", lastError: null, updatedAt: Date.now(), settings: { ...row.settings, ...settings } })
    .where(eq(inboxChannels.inboxId, inbox.id));
  configs.forget(inbox.id);
  return { ...(await getChannel(env, db, organizationId, inbox.id, origin)), detail };
}

export async function configOf(env: Bindings, row: ChannelRow): Promise<ChannelConfig> {
  return {
    inboxId: row.inboxId,
    organizationId: row.organizationId,
    platform: row.channelType as ChannelPlatform,
    credentials: { ...row.settings, ...(await openSecrets(env, row)) },
    verifyToken: row.verifyToken,
    webhookSecret: row.webhookSecret,
    webhookUrl: webhookUrlOf(row.origin, row.channelType, row.inboxId),
  };
}

/**
 * Forgets the inbox's channel in one write: the row goes, with every credential, the webhook's secret and Meta's
 * verify token (a later save starts afresh with new ones); the inbox, its contacts and conversations stay.
 * docs/decisions.md, "Disconnecting a channel".
 */
export async function forgetChannel(db: Db, organizationId: string, inboxId: string): Promise<void> {
  await db
    .delete(inboxChannels)
    .where(and(eq(inboxChannels.inboxId, inboxId), eq(inboxChannels.organizationId, organizationId)));
  configs.forget(inboxId);
}

/**
 * The channel's state as its replies found it: `failing` with the platform's words once it refused the channel's
 * credentials, `connected` once a reply went out again. Forgotten here at once, so this isolate's next reply reads it.
 */
export async function markChannel(db: Db, inboxId: string, status: "connected" | "failing", lastError: string | null) {
  await db.update(inboxChannels).set({ status, lastError }).where(eq(inboxChannels.inboxId, inboxId));
  configs.forget(inboxId);
}

/**
 * A channel opened for its module, kept a few seconds per isolate: a busy inbox's events would
 * otherwise each read and decrypt it. Saving or connecting on this isolate forgets it at once;
 * elsewhere within the TTL (a changed secret is then refused or used for a few seconds more).
 */
const configs = new TtlCache<{ row: ChannelRow; config: ChannelConfig }>(5_000);

/** The channel of an inbox, opened (null: no channel, or not of this platform). */
export async function loadChannel(
  env: Bindings,
  db: Db,
  inboxId: string,
  platform?: string,
): Promise<{ row: ChannelRow; config: ChannelConfig } | null> {
  if (!isUuid(inboxId)) return null;
  let hit = configs.get(inboxId);
  if (!hit) {
    const row = await rowOf(db, inboxId);
    if (!row) return null;
    hit = { row, config: await configOf(env, row) };
    configs.set(inboxId, hit);
  }
  if (platform && hit.row.channelType !== platform) return null;
  return hit;
}
