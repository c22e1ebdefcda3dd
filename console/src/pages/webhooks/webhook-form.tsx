import { useState } from "preact/hooks";
import {
  fieldsOf,
  Button,
  CheckboxField,
  SelectField,
  TextAreaField,
  TextField,
  useSubmit,
  SecretDialog,
  FormDialog,
} from "../../components";
import { createWebhook, updateWebhook, type Webhook, type WebhookWrite } from "./api";
import { t } from "./strings";

const DIRECTIONS = ["outgoing", "incoming", "receive"] as const;
const METHODS = ["POST", "PUT", "PATCH"] as const;
const PRESETS = ["service_standard", "custom", "genesys_cloud", "legacy"] as const;

/** "Name: value" lines -> headers, or the number of the first line that is not one. */
function parseHeaders(text: string): Record<string, string> | number {
  const headers: Record<string, string> = {};
  const lines = text.split("\n");
  for (const [i, line] of lines.entries()) {
    if (!line.trim()) continue;
    const colon = line.indexOf(":");
    if (colon < 1) return i + 1;
    headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return headers;
}

/** 32 random letters and digits, for a secret the receiver and the service share. */
function randomSecret(): string {
  const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  return [...crypto.getRandomValues(new Uint8Array(32))].map((b) => alphabet[b % 62]).join("");
}

/**
 * Adds a webhook to an inbox (`webhook` absent) or changes one: every field of the configuration.
 * A new secret (typed or generated) is shown once after saving, with a copy button; the API never
 * returns it.
 */
export function WebhookForm({
  inboxId,
  webhook,
  onClose,
  onSaved,
}: {
  inboxId: string;
  webhook?: Webhook;
  onClose: () => void;
  onSaved: (w: Webhook) => void;
}) {
  const [direction, setDirection] = useState<WebhookWrite["direction"]>(webhook?.direction ?? "outgoing");
  const [method, setMethod] = useState<NonNullable<WebhookWrite["method"]>>(webhook?.method ?? "POST");
  const [preset, setPreset] = useState<WebhookWrite["templatePreset"]>(webhook?.templatePreset ?? "service_standard");
  const [secret, setSecret] = useState("");
  const [headersError, setHeadersError] = useState<string | undefined>();
  const [shownSecret, setShownSecret] = useState<string | null>(null);

  const lifecycleAllowed = direction !== "receive" && preset !== "genesys_cloud";

  const submitting = useSubmit(async (form) => {
    const text = (name: string) => String(form.get(name) ?? "").trim();
    const headers = parseHeaders(String(form.get("headers") ?? ""));
    if (typeof headers === "number") return setHeadersError(t("headersInvalid", { line: headers }));
    setHeadersError(undefined);
    const body: WebhookWrite = {
      name: text("name"),
      direction,
      url: text("url"),
      method,
      isEnabled: form.get("isEnabled") === "on",
      retryFailedDeliveries: form.get("retryFailedDeliveries") === "on",
      // Only a pushing webhook with a preset that has a shape for them sends lifecycle events (the API refuses the
      // rest).
      conversationEvents: lifecycleAllowed && form.get("conversationEvents") === "on",
      templatePreset: preset,
      headers,
    };
    if (preset === "custom" || webhook?.customTemplate)
      body.customTemplate = preset === "custom" ? String(form.get("customTemplate") ?? "") : webhook?.customTemplate;
    const newSecret = secret.trim();
    if (form.get("removeSecret")) body.secretToken = null;
    else if (newSecret) body.secretToken = newSecret;
    const saved = webhook ? await updateWebhook(inboxId, webhook.id, body) : await createWebhook(inboxId, body);
    onSaved(saved);
    if (body.secretToken) setShownSecret(newSecret);
    else onClose();
  });
  const { problem } = submitting;

  if (shownSecret)
    return (
      <SecretDialog
        title={t("newSecretTitle")}
        warning={t("newSecretWarning")}
        label={t("secretToken")}
        secret={shownSecret}
        onClose={onClose}
      />
    );
  const headerLines = Object.entries(webhook?.headers ?? {})
    .map(([k, v]) => `${k}: ${v}`)
    .join("\n");
  const field = fieldsOf(webhook, t);
  return (
    <FormDialog
      title={webhook ? t("editWebhook") : t("addWebhook")}
      adding={!webhook}
      submitting={submitting}
      onClose={onClose}
    >
      <TextField {...field("name")} required maxLength={200} />
      <SelectField
        label={t("direction")}
        value={direction}
        onChange={(e) => setDirection(e.currentTarget.value as WebhookWrite["direction"])}
        options={DIRECTIONS.map((d) => [d, t(d)])}
        error={problem?.field("direction")}
      />
      <TextField {...field("url")} type="url" required maxLength={2000} hint={t("urlHint")} />
      <SelectField
        label={t("method")}
        value={method}
        onChange={(e) => setMethod(e.currentTarget.value as typeof method)}
        options={METHODS.map((m) => [m, m])}
      />
      <CheckboxField label={t("isEnabled")} name="isEnabled" defaultChecked={webhook?.isEnabled ?? true} />
      <CheckboxField
        label={t("retryFailedDeliveries")}
        name="retryFailedDeliveries"
        defaultChecked={webhook?.retryFailedDeliveries ?? false}
        hint={t("retryHint")}
      />
      <SelectField
        label={t("templatePreset")}
        value={preset}
        onChange={(e) => setPreset(e.currentTarget.value as WebhookWrite["templatePreset"])}
        options={PRESETS.map((p) => [p, t(p)])}
        error={problem?.field("templatePreset")}
      />
      {lifecycleAllowed && (
        <CheckboxField
          label={t("conversationEvents")}
          name="conversationEvents"
          defaultChecked={webhook?.conversationEvents ?? false}
          hint={t("conversationEventsHint")}
          error={problem?.field("conversationEvents")}
        />
      )}
      {preset === "custom" && (
        <TextAreaField
          {...field("customTemplate")}
          rows={6}
          class="code"
          spellcheck={false}
          hint={t("customTemplateHint")}
        />
      )}
      <TextAreaField
        label={t("headers")}
        name="headers"
        class="code"
        spellcheck={false}
        defaultValue={headerLines}
        hint={t("headersHint")}
        error={headersError ?? problem?.field("headers")}
      />
      <div class="secret">
        <TextField
          label={t("secretToken")}
          type="password"
          autoComplete="off"
          value={secret}
          onInput={(e) => setSecret(e.currentTarget.value)}
          hint={
            webhook?.hasSecretToken
              ? t("secretKeep", { preview: webhook.secretTokenPreview ?? "••••" })
              : t("secretHint")
          }
          error={problem?.field("secretToken")}
        />
        <Button onClick={() => setSecret(randomSecret())}>{t("generate")}</Button>
      </div>
      {webhook?.hasSecretToken && <CheckboxField label={t("removeSecret")} name="removeSecret" />}
    </FormDialog>
  );
}
