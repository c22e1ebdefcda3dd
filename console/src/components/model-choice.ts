// A model as a select offers it. A model that cannot answer in this deployment (a Workers AI model
// without the AI binding, an API key that cannot be read) stays listed, so the picker tells the
// truth about what exists, but disabled and with its reason: the API refuses to save an assistant on it.
import type { Schemas } from "../api/client";
import { t } from "./strings";

/** A model's whether and why it can answer here, as its record says. */
export type Availability = Partial<Pick<Schemas["Model"], "available" | "unavailableReason" | "unavailableCode">>;

export interface ModelLike extends Availability {
  id: string;
  name: string | null;
  displayName?: string | null;
}

/** Why the model cannot be used, in the console's language (the API's English reason for a code it does not know). */
export const unavailableReason = (m: Availability) =>
  m.unavailableCode ? t(`unavailable_${m.unavailableCode}`) : m.unavailableReason || t("unavailableNoReason");

/** The model's choice of a model select: [id, label, disabled]. */
export function modelOption(m: ModelLike, name = m.displayName || m.name || m.id): [string, string, boolean] {
  if (m.available !== false) return [m.id, name, false];
  return [m.id, t("unavailableModel", { name, reason: unavailableReason(m) }), true];
}

/** The first model that can be picked (a default for a new record), else none. */
export const firstAvailable = <T extends ModelLike>(models: T[]): T | undefined =>
  models.find((m) => m.available !== false);
