import { maskSecret } from "./crypto";
import { fieldError } from "./errors";

type HeaderObject = Record<string, unknown>;

/** A header value as records show it: its end at most (maskSecret). */
const masked = (value: unknown) => (typeof value === "string" && value ? maskSecret(value) : value);

/** Whether `value` has the form of a masked value (maskSecret's), rather than being one a receiver could use. */
export const looksMasked = (value: unknown) =>
  typeof value === "string" && (value === "••••" || /^…[\x20-\x7e]{4}$/.test(value));

/**
 * Headers as a record shows them: the names, each value masked. The values are write-only (an api key, a bearer
 * token), as a connector's authHeaders and a webhook's secret are.
 */
export const maskedHeaders = <T extends HeaderObject | null>(headers: T): T =>
  (headers && Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, masked(value)]))) as T;

/**
 * The headers to store from those a body sends, against the `stored` ones: a value sent back as the record shows it
 * (masked) keeps the stored value, so an edit form that sends every field stores no mask. When the URL they go to has
 * moved (`stay` false), a masked value is dropped instead: stored values do not follow the record to another server.
 */
export function unmaskedHeaders<T extends HeaderObject>(sent: T, stored: HeaderObject | null, stay: boolean): T {
  const out: HeaderObject = {};
  for (const [name, value] of Object.entries(sent)) {
    const kept = stored?.[name];
    const isMask = typeof kept === "string" && kept !== "" && value === masked(kept);
    if (!isMask) out[name] = value;
    else if (stay) out[name] = kept;
  }
  return out as T;
}

/**
 * unmaskedHeaders, then a 400 on `field` for a masked value naming no stored one: stored, the mask would be sent to
 * the server as is (a header value a receiver or an API refuses), as if it were the credential.
 */
export function headersToStore<T extends HeaderObject>(
  field: string,
  sent: T,
  stored: HeaderObject | null,
  stay: boolean,
): T {
  const headers = unmaskedHeaders(sent, stored, stay);
  const masked = Object.keys(headers).find((name) => looksMasked(headers[name]));
  if (masked) throw fieldError(field, `The value of "${masked}" is a masked one; give the value itself.`);
  return headers;
}
