let lastMs = 0;
let counter = 0;

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

/**
 * UUID v7: time-ordered, so ids sort by creation and make good cursors and index keys. Within one
 * millisecond a 12-bit counter (RFC 9562, method 1) keeps ids of this isolate strictly increasing.
 * Several are made per request, so the bytes are written out through a table (no BigInt).
 */
export function uuidv7(now = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    counter = Math.floor(Math.random() * 0x400);
  } else if (++counter > 0xfff) {
    lastMs++;
    counter = 0;
  }
  const b = crypto.getRandomValues(new Uint8Array(16));
  writeMilliseconds(b, lastMs);
  b[6] = 0x70 | (counter >> 8);
  b[7] = counter & 0xff;
  b[8] = (b[8] & 0x3f) | 0x80;
  return uuidText(b);
}

/** A UUID v7's first 6 bytes: the 48 bits of milliseconds since the epoch, big-endian. */
function writeMilliseconds(b: Uint8Array, ms: number): void {
  const high = Math.floor(ms / 0x10000); // the upper 32 of the 48 bits
  b[0] = high >>> 24;
  b[1] = (high >>> 16) & 0xff;
  b[2] = (high >>> 8) & 0xff;
  b[3] = high & 0xff;
  b[4] = (ms >>> 8) & 0xff;
  b[5] = ms & 0xff;
}

/** 16 bytes as a UUID's text: 8-4-4-4-12 hex digits. */
function uuidText(b: Uint8Array): string {
  const h = (i: number) => HEX[b[i]];
  return (
    `${h(0)}${h(1)}${h(2)}${h(3)}-${h(4)}${h(5)}-${h(6)}${h(7)}-` +
    `${h(8)}${h(9)}-${h(10)}${h(11)}${h(12)}${h(13)}${h(14)}${h(15)}`
  );
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string) => UUID_RE.test(value);

/**
 * A UUID v7 that is the same every time for the same `name` and time: the time's 48 bits, then bits
 * of SHA-256(name). For what a platform may send twice (a contact, a message of an event): the
 * second write meets the first's primary key instead of making a duplicate.
 */
export async function stableUuidv7(name: string, at: number): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(name)));
  const b = new Uint8Array(16);
  writeMilliseconds(b, at);
  b.set(hash.subarray(0, 10), 6);
  b[6] = 0x70 | (b[6] & 0x0f);
  b[8] = (b[8] & 0x3f) | 0x80;
  return uuidText(b);
}
