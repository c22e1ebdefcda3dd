const encoder = new TextEncoder();

/**
 * base64 of bytes, or of text as UTF-8. The bytes become a binary string in slices: spreading a large array into
 * `String.fromCharCode` overflows the call stack.
 */
export function toBase64(data: Uint8Array | ArrayBuffer | string): string {
  const bytes = typeof data === "string" ? encoder.encode(data) : new Uint8Array(data);
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** The bytes of base64 text; throws (a DOMException) on what is not base64. */
export const fromBase64 = (text: string): Uint8Array => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

/** base64url (RFC 4648 section 5) without padding, as tokens and cursors carry it in URLs. */
export const toBase64Url = (data: Uint8Array | ArrayBuffer | string): string =>
  toBase64(data).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

export const fromBase64Url = (text: string): Uint8Array => fromBase64(text.replace(/-/g, "+").replace(/_/g, "/"));
