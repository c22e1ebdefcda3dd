import { toBase64 } from "../../lib/base64";
import { hmacSha256 } from "../../lib/crypto";
/**
 * Standard Webhooks signature: `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>`.
 * The key is the UTF-8 bytes of the webhook's secret token. A receiver recomputes it to verify the
 * payload and its time without the secret travelling with each request.
 */
export async function signature(secret: string, id: string, timestamp: number, body: string): Promise<string> {
  const mac = await hmacSha256(secret, `${id}.${timestamp}.${body}`);
  return `v1,${toBase64(mac)}`;
}
