// Multipart forms read by hand: the endpoints that take an uploaded file with text fields beside it.
import { ApiError, fieldError } from "./errors";

/** The form's `file` part: 400 saying `required` when it is missing (or text), 413 past `maxBytes` (of the `noun`). */
export function formFile(form: FormData, required: string, maxBytes: number, noun: string): File {
  const file = form.get("file");
  if (!file || typeof file === "string") throw fieldError("file", required);
  if (file.size > maxBytes)
    throw new ApiError(413, "payload_too_large", `The ${noun} is larger than ${maxBytes} bytes.`);
  return file;
}

/** A text field of the form as sent (an empty one too); undefined when absent or a file. */
export function formText(form: FormData, name: string): string | undefined {
  const value = form.get(name);
  return typeof value === "string" ? value : undefined;
}
