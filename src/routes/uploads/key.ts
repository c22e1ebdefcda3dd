import { notFound } from "../../lib/errors";

const encoder = new TextEncoder();

/** The object key of a `:key{.+}` path: the normalizer's trailing slash dropped; one no object could have is 404. */
export function objectKeyParam(raw: string): string {
  const key = raw.replace(/\/+$/, "");
  if (
    !key ||
    key.split("/").some((s) => s === "" || s === "." || s === "..") ||
    encoder.encode(key).length > 1024 ||
    key.includes("\uFFFD")
  )
    throw notFound();
  return key;
}
