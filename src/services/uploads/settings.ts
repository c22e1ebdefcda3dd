import type { Bindings } from "../../env";
import { toBase64 } from "../../lib/base64";
import { missingSetting, notConfigured } from "../../lib/errors";
import { usableSecret } from "../../lib/placeholders";

/** How upload and download URLs are signed: R2's S3 credentials, or our own key for our own targets. */
export interface SigningCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  bucket: string;
  /** R2's S3 endpoint (`https://<account>.r2.cloudflarestorage.com`); null: our own targets. */
  r2Endpoint: string | null;
}

const R2_SETTINGS = ["R2_ACCOUNT_ID", "R2_ACCESS_KEY_ID", "R2_SECRET_ACCESS_KEY"] as const;
export const DEFAULT_BUCKET = "assistant-platform-files";
/** Our own targets' access key id: names no account, only which secret signed. */
export const LOCAL_ACCESS_KEY_ID = "assistant-platform";
const DAY_MS = 86_400_000;
const derived = new Map<string, Promise<string>>();

/**
 * R2 credentials when all three settings are present; a partial set is a 503 naming what is
 * missing. Without them our own targets sign with UPLOAD_SIGNING_KEY, else a key derived from
 * ENCRYPTION_KEY (HMAC with a fixed label, so the encryption key itself never signs anything).
 */
export async function signingCredentials(env: Bindings): Promise<SigningCredentials> {
  const bucket = env.R2_BUCKET_NAME?.trim() || DEFAULT_BUCKET;
  const set = R2_SETTINGS.filter((s) => env[s]?.trim());
  if (set.length === R2_SETTINGS.length) {
    return {
      accessKeyId: env.R2_ACCESS_KEY_ID!.trim(),
      secretAccessKey: env.R2_SECRET_ACCESS_KEY!.trim(),
      region: "auto",
      bucket,
      r2Endpoint: `https://${env.R2_ACCOUNT_ID!.trim()}.r2.cloudflarestorage.com`,
    };
  }
  if (set.length) {
    const missing = R2_SETTINGS.find((s) => !env[s]?.trim())!;
    throw missingSetting(
      missing,
      "sign upload URLs for R2 (set all of R2_ACCOUNT_ID, R2_ACCESS_KEY_ID and R2_SECRET_ACCESS_KEY, or none)",
    );
  }
  const own = env.UPLOAD_SIGNING_KEY?.trim();
  if (own) return { accessKeyId: LOCAL_ACCESS_KEY_ID, secretAccessKey: own, region: "auto", bucket, r2Endpoint: null };
  // The example's placeholder ENCRYPTION_KEY is no key (lib/placeholders.ts).
  const base = usableSecret("ENCRYPTION_KEY", env.ENCRYPTION_KEY);
  if (!base) throw missingSetting("UPLOAD_SIGNING_KEY", "sign upload and download URLs (ENCRYPTION_KEY would do too)");
  let secret = derived.get(base);
  if (!secret) {
    secret = deriveKey(base);
    derived.set(base, secret);
  }
  return { accessKeyId: LOCAL_ACCESS_KEY_ID, secretAccessKey: await secret, region: "auto", bucket, r2Endpoint: null };
}

async function deriveKey(base: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(base),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode("assistant-platform/uploads/v1"));
  return toBase64(mac);
}

export function presignMethod(env: Bindings): "POST" | "PUT" {
  const value = (env.PRESIGNED_UPLOAD_METHOD ?? "").trim().toUpperCase();
  if (!value || value === "POST") return "POST";
  if (value === "PUT") return "PUT";
  throw notConfigured(`PRESIGNED_UPLOAD_METHOD is "${env.PRESIGNED_UPLOAD_METHOD}"; it must be POST or PUT.`);
}

/** Milliseconds after which an upload never attached is deleted; null: never. */
export function unattachedTtlMs(env: Bindings): number | null {
  const raw = env.UNATTACHED_UPLOAD_TTL_HOURS?.trim();
  if (!raw) return DAY_MS;
  const hours = Number(raw);
  if (!Number.isFinite(hours) || hours < 0)
    throw notConfigured(`UNATTACHED_UPLOAD_TTL_HOURS is "${raw}"; it must be a number of hours (0 keeps uploads).`);
  return hours === 0 ? null : hours * 3_600_000;
}

/** Seconds a signed download URL stays valid (S3's limit is 7 days). */
export function downloadTtlSeconds(env: Bindings): number {
  const value = Number(env.ATTACHMENT_URL_TTL_SECONDS);
  return Number.isFinite(value) && value > 0 ? Math.min(Math.floor(value), 604_800) : 3600;
}

/** Message attachments are stored with their URL: it lasts as long as S3 allows. */
export const MESSAGE_URL_TTL_SECONDS = 604_800;
/** How long a presigned upload may be used. */
export const UPLOAD_URL_TTL_SECONDS = 3600;
