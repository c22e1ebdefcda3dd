import type { Bindings } from "../../env";
import { ms } from "../../lib/time";
import { secretTokenPreview, type WebhookRow, type WebhookView } from "../webhooks/config";

export interface WebhookRecord {
  id: string;
  inbox: { id: string; name: string };
  name: string;
  direction: WebhookRow["direction"];
  isEnabled: boolean;
  retryFailedDeliveries: boolean;
  conversationEvents: boolean;
  disabledAt: string | null;
  disabledReason: string | null;
  url: string;
  method: WebhookRow["method"];
  headers: Record<string, string>;
  templatePreset: WebhookRow["templatePreset"];
  customTemplate: string | null;
  hasSecretToken: boolean;
  secretTokenPreview: string | null;
  createdAt: string;
  updatedAt: string;
}

export async function webhookRecord(
  { webhook: w, inbox }: WebhookView,
  env: Pick<Bindings, "ENCRYPTION_KEY">,
): Promise<WebhookRecord> {
  return {
    id: w.id,
    inbox,
    name: w.name,
    direction: w.direction,
    isEnabled: w.isEnabled,
    retryFailedDeliveries: w.retryFailedDeliveries,
    conversationEvents: w.conversationEvents,
    disabledAt: ms(w.disabledAt),
    disabledReason: w.disabledReason,
    url: w.url,
    method: w.method,
    headers: w.headers ?? {},
    templatePreset: w.templatePreset,
    customTemplate: w.customTemplate,
    hasSecretToken: !!w.secretTokenSealed,
    secretTokenPreview: await secretTokenPreview(w, env),
    createdAt: ms(w.createdAt)!,
    updatedAt: ms(w.updatedAt)!,
  };
}
