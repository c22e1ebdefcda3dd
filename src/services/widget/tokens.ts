import { fromBase64Url, toBase64Url } from "../../lib/base64";
import { requiredSecret } from "../../lib/placeholders";
import { timingSafeEqual, toHex } from "../../lib/crypto";

const encoder = new TextEncoder();

/** How long a visitor token is accepted, and how long after that it can still be renewed. */
export const VISITOR_TOKEN_TTL_S = 2 * 60 * 60;
export const VISITOR_RENEWAL_S = 30 * 24 * 60 * 60;

/** What a visitor token grants: one contact, in one web chat, until `exp` (seconds). */
export interface VisitorClaims {
  /** Web chat id. */
  w: string;
  /** Contact id. */
  c: string;
  /** Expiry, seconds since the epoch. */
  exp: number;
  /** The contact was identified by the business (signed sourceId), not anonymous. */
  idv?: boolean;
  /** With `idv`: which identity secret vouched for it (`secretMark`); a new secret ends the token. */
  k?: string;
}

async function hmac(secret: string | Uint8Array, data: string): Promise<Uint8Array> {
  const raw = typeof secret === "string" ? encoder.encode(secret) : secret;
  const key = await crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(data)));
}

/** Visitor tokens are signed with a key derived from ENCRYPTION_KEY (a purpose prefix keeps it apart from sealing). */
function tokenKey(secret: string | undefined, purpose: string): string {
  return `${purpose}:${requiredSecret("ENCRYPTION_KEY", secret, "sign web chat visitor tokens")}`;
}

/** `v1.<claims>.<signature>`, both base64url; stateless, so no storage is read to check it. */
export async function signVisitorToken(claims: VisitorClaims, secret: string | undefined): Promise<string> {
  const body = toBase64Url(JSON.stringify(claims));
  return `v1.${body}.${toBase64Url(await hmac(tokenKey(secret, "widget-token"), body))}`;
}

/** The claims of a well-signed token (expired or not: the caller decides), else null. */
export async function readVisitorToken(token: string, secret: string | undefined): Promise<VisitorClaims | null> {
  const [version, body, signature] = token.split(".");
  if (version !== "v1" || !body || !signature || token.length > 1000) return null;
  let given: Uint8Array;
  try {
    given = fromBase64Url(signature);
  } catch {
    return null;
  }
  if (!timingSafeEqual(given, await hmac(tokenKey(secret, "widget-token"), body))) return null;
  try {
    const claims = JSON.parse(new TextDecoder().decode(fromBase64Url(body))) as VisitorClaims;
    return typeof claims.w === "string" && typeof claims.c === "string" && typeof claims.exp === "number"
      ? claims
      : null;
  } catch {
    return null;
  }
}

/**
 * The identity a business's backend vouches for (like Chatwoot's identity validation): the hex
 * HMAC-SHA256 of `sourceId` with the web chat's identity secret, or of `sourceId:expiresAt` when
 * the backend wants the identity to lapse (`expiresAt` in seconds).
 */
export async function identityDigest(identitySecret: string, sourceId: string, expiresAt?: number): Promise<string> {
  return toHex(await hmac(identitySecret, expiresAt === undefined ? sourceId : `${sourceId}:${expiresAt}`));
}

export async function identityMatches(
  identitySecret: string,
  sourceId: string,
  token: string,
  expiresAt?: number,
): Promise<boolean> {
  const expected = encoder.encode(await identityDigest(identitySecret, sourceId, expiresAt));
  return timingSafeEqual(encoder.encode(token.toLowerCase()), expected);
}

/**
 * A short mark of the web chat's identity secret as stored (sealed with a fresh IV each time it is replaced), carried
 * by identified tokens: a secret replaced because it leaked must end the sessions it vouched for at once, not up to
 * two hours later, and the stored form is checked without decrypting it on every request.
 */
export async function secretMark(sealed: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(sealed)));
  return toBase64Url(digest.slice(0, 12));
}

/** Share links: a read-only view of one conversation, signed like visitor tokens. */
export async function signShareToken(
  webChatId: string,
  conversationId: string,
  secret: string | undefined,
): Promise<string> {
  const body = `${webChatId}.${conversationId}`;
  return toBase64Url(await hmac(tokenKey(secret, "widget-share"), body));
}
