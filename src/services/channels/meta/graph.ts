// Meta's Graph API as Messenger, Instagram and WhatsApp share it: one API version, the
// X-Hub-Signature-256 check, the GET subscription handshake, calls with the token, and Meta's
// refusals as PlatformErrors that say what Meta said.
import { z } from "zod";
import { fromHex, hmacSha256, timingSafeEqual, toHex, verifyHmacSha256 } from "../../../lib/crypto";
import { fetchPlatform, platformBase, refusal } from "../http";
import { PlatformError, type ChannelAdapter, type ChannelConfig, type Handshake, type PlatformContext } from "../types";

/** Each Graph API version is served for at least two years after its release (v24.0: October 2025); the one place to
 * move it. */
export const GRAPH_VERSION = "v24.0";

const encoder = new TextEncoder();

/**
 * Meta computes the signature over the payload with every non-ASCII character escaped as a
 * lower-case `\uXXXX` (its webhook docs, "Validate payloads"), which is how it sends them; escaping
 * what arrived changes nothing then, and still matches should a body come unescaped.
 */
export const escapeUnicode = (text: string) =>
  text.replace(/[^\0-~]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

/** `X-Hub-Signature-256: sha256=<hex HMAC-SHA256(app secret, body)>`, compared in constant time (WebCrypto's verify).
 * */
export async function verifyHubSignature(
  request: Request,
  raw: string,
  appSecret: string | undefined,
): Promise<boolean> {
  const given = /^sha256=([0-9a-f]{64})$/i.exec(request.headers.get("x-hub-signature-256")?.trim() ?? "");
  if (!given || !appSecret) return false;
  return verifyHmacSha256(appSecret, fromHex(given[1]), escapeUnicode(raw));
}

const TEXT = { "content-type": "text/plain; charset=utf-8" };

/**
 * The subscription check Meta makes when the callback URL is saved in the App Dashboard:
 * `GET ?hub.mode=subscribe&hub.verify_token=...&hub.challenge=...`, answered with the challenge
 * when the token is the channel's; 403 otherwise. Any other request (a POST, the URL opened in a browser) is not
 * Meta's check: null.
 */
export function subscriptionHandshake(request: Request, channel: ChannelConfig): Handshake | null {
  if (request.method !== "GET") return null;
  const query = new URL(request.url).searchParams;
  if (query.get("hub.mode") !== "subscribe") return null;
  const token = query.get("hub.verify_token") ?? "";
  if (channel.verifyToken && timingSafeEqual(encoder.encode(token), encoder.encode(channel.verifyToken)))
    return { passed: true, answer: new Response(query.get("hub.challenge") ?? "", { headers: TEXT }) };
  return {
    passed: false,
    refusal: "wrong_verify_token",
    answer: new Response("hub.verify_token does not match this channel's verify token.", {
      status: 403,
      headers: TEXT,
    }),
  };
}

/** How every Meta platform's webhook is checked: the app secret's signature, and the subscription handshake. */
export const metaWebhook: Pick<ChannelAdapter, "verify" | "handshake"> = {
  verify: (request, raw, channel) => verifyHubSignature(request, raw, channel.credentials.appSecret),
  handshake: (request, _raw, channel) => subscriptionHandshake(request, channel),
};

const MEDIA_TYPES = ["image", "video", "audio"] as const;

/** What a Send API calls a file of `contentType`: image, video, audio, else `other` (each platform's word for it). */
export const mediaType = <T extends string>(contentType: string, other: T) =>
  MEDIA_TYPES.find((t) => contentType.startsWith(`${t}/`)) ?? other;

/**
 * Graph reports throttling and passing trouble as a 400 or 403 with a code rather than a 429:
 * 1 and 2 (unknown error, service unavailable), 4, 17, 32, 613 (application, user, page and custom
 * rate limits), 80006 (Messenger), 130429 and 131056 (WhatsApp throughput and pair rate), or with
 * `is_transient`. Those are tried again as a 429 would be.
 */
const TRANSIENT_CODES = new Set([1, 2, 4, 17, 32, 613, 80006, 130429, 131056]);

export class GraphRefusal extends PlatformError {
  constructor(
    message: string,
    status: number,
    retryAfterSeconds: number | undefined,
    readonly transient: boolean,
    credentialsRefused: boolean,
  ) {
    super(message, status, retryAfterSeconds, credentialsRefused);
  }
  override get retryable() {
    return this.transient || super.retryable;
  }
}

/** The part of Graph's refusal we read: `{error: {message, type, code, is_transient}}`. */
const graphError = z
  .object({
    error: z.looseObject({
      message: z.string().optional().catch(undefined),
      code: z.unknown().optional(),
      is_transient: z.unknown().optional(),
    }),
  })
  .transform((body) => body.error);

/** Graph's `{error: {message, type, code}}` as a PlatformError: "WhatsApp answered 400: (#100) Invalid parameter". */
export async function graphRefusal(platformName: string, response: Response): Promise<PlatformError> {
  const error = await response
    .clone()
    .json()
    .then((body) => graphError.safeParse(body).data)
    .catch(() => undefined);
  const base = await refusal(platformName, response, (body) => graphError.safeParse(body).data?.message);
  const transient = error?.is_transient === true || TRANSIENT_CODES.has(Number(error?.code));
  // Code 190 is a token Meta no longer takes (expired, revoked, the password changed), sent as a 400 or a 401; code
  // 10 is a permission for one message (outside the 24-hour window).
  const code = Number(error?.code);
  const tokenRefused = code === 190 || base.status === 401 || (base.status === 403 && code !== 10);
  return new GraphRefusal(base.message, base.status!, base.retryAfterSeconds, transient, tokenRefused);
}

export interface GraphAccount {
  platformName: string;
  token: string;
  appSecret?: string;
}

/**
 * A Graph API request with the account's token as a Bearer header (kept out of URLs and logs) and
 * `appsecret_proof` (HMAC-SHA256 of the token with the app secret), which apps with "Require App
 * Secret" on demand and the rest accept. Meta's answer, whatever its status.
 */
export async function graphRequest(
  ctx: PlatformContext,
  account: GraphAccount,
  method: "GET" | "POST",
  path: string,
  body?: object,
): Promise<Response> {
  const url = new URL(`https://graph/${GRAPH_VERSION}/${path.replace(/^\//, "")}`);
  if (account.appSecret) {
    url.searchParams.set("appsecret_proof", toHex(await hmacSha256(account.appSecret, account.token)));
  }
  const headers: Record<string, string> = { authorization: `Bearer ${account.token}` };
  if (body) headers["content-type"] = "application/json";
  return ctx.call("graph", `${url.pathname}${url.search}`, {
    method,
    headers,
    body: body ? JSON.stringify(body) : undefined,
  });
}

/** A Graph API call's JSON; Meta's refusal thrown as a PlatformError. */
export async function graph<T = unknown>(
  ctx: PlatformContext,
  account: GraphAccount,
  method: "GET" | "POST",
  path: string,
  body?: object,
): Promise<T> {
  const response = await graphRequest(ctx, account, method, path, body);
  if (!response.ok) throw await graphRefusal(account.platformName, response);
  return (await response.json()) as T;
}

/** Where Meta serves the files of messages: Facebook's and Instagram's CDNs, WhatsApp's lookaside. */
const META_FILE_HOSTS = /(^|\.)(fbcdn\.net|fbsbx\.com|cdninstagram\.com|facebook\.com)$/;

/**
 * A file a webhook or the media endpoint named by URL, Meta's answer whatever its status (the
 * intake leaves out a file Meta no longer has and tries again after a 5xx). Only Meta's own hosts
 * over https are fetched, the URL coming from a payload, or a URL under the Graph origin setting,
 * which in tests and local development is the stand-in serving its own files.
 */
export async function fetchMetaFile(
  ctx: PlatformContext,
  url: string,
  auth: Record<string, string> = {},
): Promise<Response> {
  // WhatsApp's lookaside answers a request without a User-Agent with an error page instead of the file.
  const headers = { ...auth, "user-agent": "assistant-platform-channels/1" };
  const base = platformBase(ctx.env, "graph");
  if (url.startsWith(`${base}/`)) return ctx.call("graph", url.slice(base.length), { headers });
  const parsed = URL.canParse(url) ? new URL(url) : null;
  if (parsed?.protocol !== "https:" || !META_FILE_HOSTS.test(parsed.hostname)) {
    // Refused as Meta would refuse a file it does not have: the message is taken in without it.
    return new Response(`${parsed?.host || "An invalid URL"} is not one of Meta's file hosts; not fetched.`, {
      status: 403,
      statusText: "Not a Meta file",
    });
  }
  return fetchPlatform(ctx.env, "graph", parsed.href, { headers });
}
