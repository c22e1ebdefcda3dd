import { fromBase64, toBase64 } from "./base64";
import { ApiError } from "./errors";
import { requiredSecret } from "./placeholders";

const encoder = new TextEncoder();
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));
/** Every request hashes its API key: the bytes are written out through a table. */
export function toHex(buf: ArrayBuffer | Uint8Array): string {
  let out = "";
  for (const b of new Uint8Array(buf)) out += HEX[b];
  return out;
}
export const fromHex = (hex: string) => new Uint8Array(hex.match(/../g)!.map((h) => parseInt(h, 16)));

export async function sha256Hex(text: string): Promise<string> {
  return toHex(await crypto.subtle.digest("SHA-256", encoder.encode(text)));
}

/** Unbiased random base62 string (rejection sampling). */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const b of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (b < 248 && out.length < length) out += BASE62[b % 62];
    }
  }
  return out;
}

/** API keys: `ak_` + 40 base62 characters; only their SHA-256 is stored (CONTRACT section 3). */
export const newApiKey = () => `ak_${randomBase62(40)}`;

// Workers cap PBKDF2 at 100,000 iterations, which is also the contract's floor.
const PBKDF2_ITERATIONS = 100_000;

async function pbkdf2(password: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(password), "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, key, 256);
  return new Uint8Array(bits);
}

/** Stored as `pbkdf2_sha256$<iterations>$<salt hex>$<hash hex>`. */
export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const hash = await pbkdf2(password, salt, PBKDF2_ITERATIONS);
  return `pbkdf2_sha256$${PBKDF2_ITERATIONS}$${toHex(salt)}$${toHex(hash)}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [algo, iterations, salt, hash] = stored.split("$");
  if (algo !== "pbkdf2_sha256" || !salt || !hash) return false;
  const candidate = await pbkdf2(password, fromHex(salt), Number(iterations));
  return timingSafeEqual(candidate, fromHex(hash));
}

export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}

/** Derived keys by secret, made once per isolate: every reply of a model with an API key decrypts it. */
const aesKeys = new Map<string, Promise<CryptoKey>>();

function aesKey(secret: string): Promise<CryptoKey> {
  let key = aesKeys.get(secret);
  if (!key) {
    key = crypto.subtle
      .digest("SHA-256", encoder.encode(secret))
      .then((raw) => crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]));
    key.catch(() => aesKeys.delete(secret));
    if (aesKeys.size >= 16) aesKeys.clear(); // a deployment has one ENCRYPTION_KEY; tests a few
    aesKeys.set(secret, key);
  }
  return key;
}

const requireSecret = (secret: string | undefined): string =>
  requiredSecret(
    "ENCRYPTION_KEY",
    secret,
    "store or read credentials (model API keys, webhook secrets, contact credentials)",
  );

/** Credentials at rest: AES-GCM with a key derived from ENCRYPTION_KEY, `v1:<iv>:<ciphertext>` in base64. */
export async function encryptSecret(plain: string, secret: string | undefined): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const data = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv },
    await aesKey(requireSecret(secret)),
    encoder.encode(plain),
  );
  return `v1:${toBase64(iv)}:${toBase64(data)}`;
}

export async function decryptSecret(sealed: string, secret: string | undefined): Promise<string> {
  const [, iv, data] = sealed.split(":");
  const plain = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: fromBase64(iv) },
    await aesKey(requireSecret(secret)),
    fromBase64(data),
  );
  return new TextDecoder().decode(plain);
}

/**
 * A sealed value this deployment cannot open, as opposed to an error of our own code: ENCRYPTION_KEY unset or still
 * the placeholder (not_configured), changed since the value was sealed, or the value mangled (WebCrypto's and atob's
 * DOMException).
 */
export function cannotOpen(err: unknown): boolean {
  return err instanceof DOMException || (err instanceof ApiError && err.code === "not_configured");
}

/**
 * Shows that a write-only secret is set, and which one, without revealing it: its last 4 characters (`…wxyz`), and
 * only for a secret of 16 or more, so no more than a quarter of it shows; a shorter one is `••••`.
 */
export function maskSecret(value: string | null | undefined): string | null {
  if (!value) return null;
  return value.length < 16 ? "••••" : `…${value.slice(-4)}`;
}

const hmacKey = (secret: string, usage: "sign" | "verify") =>
  crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [usage]);

/** HMAC-SHA256 of `data` under the UTF-8 bytes of `secret` (webhook signatures, Meta's appsecret_proof). */
export async function hmacSha256(secret: string, data: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.sign("HMAC", await hmacKey(secret, "sign"), encoder.encode(data)));
}

/** Whether `mac` is the HMAC-SHA256 of `data` under `secret`, compared in constant time (WebCrypto's verify):
 * platforms' signed requests. */
export async function verifyHmacSha256(secret: string, mac: Uint8Array, data: string): Promise<boolean> {
  return crypto.subtle.verify("HMAC", await hmacKey(secret, "verify"), mac, encoder.encode(data));
}
