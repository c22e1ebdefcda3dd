const encoder = new TextEncoder();

/**
 * Standard Webhooks signature: `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>`.
 * The key is the UTF-8 bytes of the webhook's secret token. A receiver recomputes it to verify the
 * payload and its time without the secret travelling with each request.
 */
export async function signature(secret: string, id: string, timestamp: number, body: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = await crypto.subtle.sign("HMAC", key, encoder.encode(`${id}.${timestamp}.${body}`));
  return `v1,${btoa(String.fromCharCode(...new Uint8Array(mac)))}`;
}
