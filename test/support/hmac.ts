// An HMAC-SHA256 key from a shared secret, for tests that check or make a signature the way a platform or a
// receiver does, independently of the code under test.

/** The HMAC-SHA256 key of `secret` (UTF-8), for `usage`: "sign" to make a signature, "verify" to check one. */
export const hmacSha256Key = (secret: string, usage: "sign" | "verify") =>
  crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [usage]);
