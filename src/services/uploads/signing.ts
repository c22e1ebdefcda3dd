import { AwsV4Signer } from "aws4fetch";
import { fromBase64, toBase64 } from "../../lib/base64";
import { timingSafeEqual, toHex } from "../../lib/crypto";
import type { S3ErrorCode } from "../../lib/errors";
import type { SigningCredentials } from "./settings";

/**
 * AWS Signature V4 for uploads and downloads. POST policies (browser form uploads) are signed and
 * verified here with WebCrypto HMAC, as S3 documents them; query-signed URLs (PUT and GET) are signed
 * and checked with aws4fetch, so the URL R2 accepts and the one our own targets accept are the same.
 */

const encoder = new TextEncoder();
const ALGORITHM = "AWS4-HMAC-SHA256";

async function hmac(key: ArrayBuffer | Uint8Array | string, data: string): Promise<ArrayBuffer> {
  const raw = typeof key === "string" ? encoder.encode(key) : key;
  const cryptoKey = await crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return crypto.subtle.sign("HMAC", cryptoKey, encoder.encode(data));
}

/** Signing keys by secret, day and region: one a day per secret, derived by four HMACs (as aws4fetch caches its own).
 * */
const signingKeys = new Map<string, Promise<ArrayBuffer>>();

function signingKey(secret: string, date: string, region: string): Promise<ArrayBuffer> {
  const id = `${date}/${region}/${secret}`;
  let key = signingKeys.get(id);
  if (!key) {
    if (signingKeys.size >= 16) signingKeys.clear();
    key = (async () => {
      const kDate = await hmac(`AWS4${secret}`, date);
      const kRegion = await hmac(kDate, region);
      const kService = await hmac(kRegion, "s3");
      return hmac(kService, "aws4_request");
    })();
    key.catch(() => signingKeys.delete(id));
    signingKeys.set(id, key);
  }
  return key;
}

/** `20260101T000000Z` */
export const amzDate = (at: Date) => at.toISOString().replace(/[:-]|\.\d{3}/g, "");

export interface PostPolicyInput {
  key: string;
  /** Only when the client asked for it: a Content-Type condition the form must then carry (see presign.ts). */
  contentType?: string;
  minSize: number;
  maxSize: number;
  expiresInSeconds: number;
  now?: Date;
}

/**
 * The form fields of an S3 POST upload: policy (base64 JSON) and its signature. The policy names only
 * fields an S3 client sends on its own (bucket, key, the x-amz-* fields) and the size range: clients
 * such as the product's Python examples post `key`, the `x-amz-*` fields, `policy`, the signature and
 * the file, nothing else, and S3 fails any condition whose field is missing.
 */
export async function signPostPolicy(
  creds: SigningCredentials,
  input: PostPolicyInput,
): Promise<Record<string, string>> {
  const now = input.now ?? new Date();
  const date = amzDate(now);
  const credential = `${creds.accessKeyId}/${date.slice(0, 8)}/${creds.region}/s3/aws4_request`;
  const policy = {
    expiration: new Date(now.getTime() + input.expiresInSeconds * 1000).toISOString(),
    conditions: [
      { bucket: creds.bucket },
      { key: input.key },
      ...(input.contentType ? [{ "Content-Type": input.contentType }] : []),
      ["content-length-range", input.minSize, input.maxSize],
      { "x-amz-algorithm": ALGORITHM },
      { "x-amz-credential": credential },
      { "x-amz-date": date },
    ],
  };
  const encoded = toBase64(JSON.stringify(policy));
  const signature = toHex(await hmac(await signingKey(creds.secretAccessKey, date.slice(0, 8), creds.region), encoded));
  return {
    key: input.key,
    ...(input.contentType ? { "Content-Type": input.contentType } : {}),
    "x-amz-algorithm": ALGORITHM,
    "x-amz-credential": credential,
    "x-amz-date": date,
    policy: encoded,
    "x-amz-signature": signature,
  };
}

/** Why S3 would refuse a POST upload: its error code and message, with the HTTP status it answers. */
export class PolicyError extends Error {
  constructor(
    readonly status: 400 | 403,
    readonly code: S3ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export interface VerifiedPolicy {
  key: string;
  contentType: string | null;
  minSize: number;
  maxSize: number;
}

/** Form fields S3 never requires a condition for. */
const EXEMPT = new Set(["policy", "x-amz-signature", "file", "awsaccesskeyid", "signature", "x-amz-security-token"]);

/**
 * Checks a POST upload's form fields as S3 does: signature over the policy with the credential's
 * signing key, expiration, every condition met by the fields, and every field (bar the exempt ones
 * and `x-ignore-*`) covered by a condition. Field names are compared case-insensitively.
 */
export async function verifyPostPolicy(
  creds: SigningCredentials,
  form: Map<string, string>,
  now = new Date(),
): Promise<VerifiedPolicy> {
  const get = (name: string) => form.get(name.toLowerCase());
  const policyText = get("policy");
  const signature = get("x-amz-signature");
  if (!policyText || !signature)
    throw new PolicyError(403, "AccessDenied", "Bucket POST must contain a policy and its x-amz-signature field.");
  if (get("x-amz-algorithm") !== ALGORITHM)
    throw new PolicyError(400, "InvalidArgument", `x-amz-algorithm must be ${ALGORITHM}.`);
  const credential = get("x-amz-credential") ?? "";
  const [accessKeyId, day, region, service, terminal] = credential.split("/");
  if (
    accessKeyId !== creds.accessKeyId ||
    !/^\d{8}$/.test(day ?? "") ||
    region !== creds.region ||
    service !== "s3" ||
    terminal !== "aws4_request"
  ) {
    throw new PolicyError(403, "InvalidAccessKeyId", "The access key id or scope in x-amz-credential is not ours.");
  }
  const expected = toHex(await hmac(await signingKey(creds.secretAccessKey, day, region), policyText));
  if (!timingSafeEqual(encoder.encode(expected), encoder.encode(signature.toLowerCase()))) {
    throw new PolicyError(
      403,
      "SignatureDoesNotMatch",
      "The request signature we calculated does not match the signature you provided.",
    );
  }
  let policy: { expiration?: unknown; conditions?: unknown };
  try {
    policy = JSON.parse(new TextDecoder().decode(fromBase64(policyText)));
  } catch {
    throw new PolicyError(400, "InvalidPolicyDocument", "Invalid Policy: the policy is not base64-encoded JSON.");
  }
  const expiration = typeof policy.expiration === "string" ? Date.parse(policy.expiration) : NaN;
  if (!Number.isFinite(expiration) || !Array.isArray(policy.conditions))
    throw new PolicyError(400, "InvalidPolicyDocument", "Invalid Policy: expiration and conditions are required.");
  if (expiration <= now.getTime())
    throw new PolicyError(403, "AccessDenied", "Invalid according to Policy: Policy expired.");

  const covered = new Set<string>(["bucket"]);
  let range: [number, number] | null = null;
  const fail = (condition: unknown) =>
    new PolicyError(
      403,
      "AccessDenied",
      `Invalid according to Policy: Policy Condition failed: ${JSON.stringify(condition)}`,
    );
  const value = (name: string) => (name.toLowerCase() === "bucket" ? creds.bucket : get(name));
  for (const condition of policy.conditions as unknown[]) {
    if (Array.isArray(condition)) {
      const [op, a, b] = condition as [string, unknown, unknown];
      if (String(op).toLowerCase() === "content-length-range") {
        range = [Number(a), Number(b)];
        continue;
      }
      const name = String(a).replace(/^\$/, "").toLowerCase();
      covered.add(name);
      const actual = value(name) ?? "";
      if (
        String(op).toLowerCase() === "eq"
          ? actual !== String(b)
          : String(op).toLowerCase() === "starts-with"
            ? !actual.startsWith(String(b))
            : true
      )
        throw fail(condition);
    } else if (condition && typeof condition === "object") {
      for (const [name, expectedValue] of Object.entries(condition)) {
        covered.add(name.toLowerCase());
        if ((value(name) ?? "") !== String(expectedValue)) throw fail(condition);
      }
    } else
      throw new PolicyError(
        400,
        "InvalidPolicyDocument",
        "Invalid Policy: a condition is neither an object nor an array.",
      );
  }
  for (const name of form.keys()) {
    if (!EXEMPT.has(name) && !name.startsWith("x-ignore-") && !covered.has(name)) {
      throw new PolicyError(403, "AccessDenied", `Invalid according to Policy: Extra input fields: ${name}`);
    }
  }
  const key = get("key");
  if (!key || !covered.has("key"))
    throw new PolicyError(400, "InvalidArgument", "Bucket POST must contain a key the policy names.");
  if (!range?.every(Number.isFinite))
    throw new PolicyError(400, "InvalidPolicyDocument", "Invalid Policy: content-length-range is required.");
  return { key, contentType: get("content-type") ?? null, minSize: range[0], maxSize: range[1] };
}

/**
 * The S3 query signer of our credentials: presigning a URL and checking a presigned request both use it, so that
 * the same request signs to the same signature.
 */
const querySigner = (
  creds: SigningCredentials,
  request: { url: string; method: string; headers: Record<string, string>; datetime: string; allHeaders?: boolean },
) =>
  new AwsV4Signer({
    ...request,
    accessKeyId: creds.accessKeyId,
    secretAccessKey: creds.secretAccessKey,
    service: "s3",
    region: creds.region,
    signQuery: true,
  });

/** A query-signed URL (presigned PUT or GET) for `url`, valid `expiresIn` seconds. */
export async function presignUrl(
  creds: SigningCredentials,
  method: "PUT" | "GET",
  url: string,
  expiresIn: number,
  headers: Record<string, string> = {},
  now = new Date(),
): Promise<string> {
  const target = new URL(url);
  target.searchParams.set("X-Amz-Expires", String(expiresIn));
  const signer = querySigner(creds, { url: target.toString(), method, headers, datetime: amzDate(now) });
  return (await signer.sign()).url.toString();
}

/**
 * When a query-signed URL's query (`X-Amz-Date` plus `X-Amz-Expires` seconds) says it lapses, in ms; null when either
 * is malformed.
 */
export function signedUntil(q: URLSearchParams): number | null {
  const at = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(q.get("X-Amz-Date") ?? "");
  const expires = Number(q.get("X-Amz-Expires"));
  if (!at || !Number.isInteger(expires)) return null;
  const [, y, mo, d, h, mi, sec] = at.map(Number);
  return Date.UTC(y, mo - 1, d, h, mi, sec) + expires * 1000;
}

/**
 * Checks a query-signed request to our own target: the same signer recomputes the signature from
 * the URL, method and signed headers, and the URL must not have expired. Returns a reason, or null.
 */
export async function verifyPresignedRequest(
  creds: SigningCredentials,
  request: Request,
  now = new Date(),
): Promise<PolicyError | null> {
  const url = new URL(request.url);
  const q = url.searchParams;
  const signature = q.get("X-Amz-Signature");
  const datetime = q.get("X-Amz-Date") ?? "";
  const lapses = signedUntil(q);
  if (!signature || lapses === null || q.get("X-Amz-Algorithm") !== ALGORITHM) {
    return new PolicyError(
      403,
      "AccessDenied",
      "Request is not signed: X-Amz-Algorithm, X-Amz-Date, X-Amz-Expires and X-Amz-Signature are required.",
    );
  }
  if (!(q.get("X-Amz-Credential") ?? "").startsWith(`${creds.accessKeyId}/`))
    return new PolicyError(403, "InvalidAccessKeyId", "The access key id in X-Amz-Credential is not ours.");
  if (lapses < now.getTime()) return new PolicyError(403, "AccessDenied", "Request has expired.");
  const signedHeaders = (q.get("X-Amz-SignedHeaders") ?? "host").split(";").filter((h) => h && h !== "host");
  const headers: Record<string, string> = {};
  for (const h of signedHeaders) headers[h] = request.headers.get(h) ?? "";
  url.searchParams.delete("X-Amz-Signature");
  // Keys never end in a slash; the request normalizer appends one to paths without a dot.
  url.pathname = url.pathname.replace(/\/+$/, "");
  const signer = querySigner(creds, {
    url: url.toString(),
    method: request.method,
    headers,
    datetime,
    allHeaders: true,
  });
  const expected = (await signer.sign()).url.searchParams.get("X-Amz-Signature") ?? "";
  if (!timingSafeEqual(encoder.encode(expected), encoder.encode(signature))) {
    return new PolicyError(
      403,
      "SignatureDoesNotMatch",
      "The request signature we calculated does not match the signature you provided.",
    );
  }
  return null;
}
