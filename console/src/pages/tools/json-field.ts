import { ApiProblem } from "../../api/client";
import { t } from "./strings";

/** A field's own problem, shown at it like the API's (`problem.field(name)`). */
export const fieldProblem = (field: string, message: string) =>
  new ApiProblem(400, message, "invalid", { [field]: [message] });

/** A JSON object typed in a field: null when empty; a problem naming the field when it is not an object. */
export function jsonObject(text: string, field: string): Record<string, unknown> | null {
  if (!text.trim()) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // JSON.parse of a string only throws a SyntaxError: the member's text is not JSON.
    throw fieldProblem(field, t("notJson"));
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) throw fieldProblem(field, t("notJsonObject"));
  return value as Record<string, unknown>;
}

export const pretty = (value: unknown) => (value === null || value === undefined ? "" : JSON.stringify(value, null, 2));
