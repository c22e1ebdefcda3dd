let lastMs = 0;
let counter = 0;

/**
 * UUID v7: time-ordered, so ids sort by creation and make good cursors and index keys. Within one
 * millisecond a 12-bit counter (RFC 9562, method 1) keeps ids of this isolate strictly increasing.
 */
export function uuidv7(now = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    counter = Math.floor(Math.random() * 0x400);
  } else if (++counter > 0xfff) {
    lastMs++;
    counter = 0;
  }
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  const ts = BigInt(lastMs);
  for (let i = 0; i < 6; i++) bytes[i] = Number((ts >> BigInt(8 * (5 - i))) & 0xffn);
  bytes[6] = 0x70 | (counter >> 8);
  bytes[7] = counter & 0xff;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string) => UUID_RE.test(value);
