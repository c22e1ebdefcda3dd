import { useState } from "preact/hooks";
import {
  useSubmit,
  TextField,
  useCrudList,
  actionsColumn,
  type Column,
  SecretDialog,
  FormDialog,
  ResourceListSection,
} from "../../components";
import { formatTime } from "../../i18n";
import { createApiKey, listApiKeys, PAGE_SIZE, revokeApiKey, type ApiKey } from "./api";
import { t } from "./strings";

const statusOf = (key: ApiKey) =>
  key.revokedAt ? "revoked" : key.expiresAt && Number(key.expiresAt) <= Date.now() ? "expired" : "active";

/** The user's API keys: created with the secret shown once (with copy), and revoked. */
export function KeysSection() {
  const crud = useCrudList(listApiKeys, []);
  const [creating, setCreating] = useState(false);
  const columns: Column<ApiKey>[] = [
    { label: t("keyName"), rowHeader: true, cell: (k) => k.name },
    { label: t("key"), cell: (k) => <code>{k.prefix}…</code> },
    { label: t("created"), cell: (k) => formatTime(k.createdAt) },
    { label: t("lastUsed"), cell: (k) => formatTime(k.lastUsedAt) },
    { label: t("expires"), cell: (k) => (k.expiresAt ? formatTime(k.expiresAt) : t("never")) },
    {
      label: t("status"),
      cell: (k) => <span class={`status ${statusOf(k) === "active" ? "ok" : "muted"}`}>{t(statusOf(k))}</span>,
    },
    actionsColumn<ApiKey>(t("actions"), [
      {
        text: t("revoke"),
        named: (k) => t("revokeNamed", { name: k.name }),
        run: crud.setDeleting,
        danger: true,
        when: (k) => statusOf(k) === "active",
      },
    ]),
  ];
  return (
    <ResourceListSection
      id="keys-title"
      title={t("apiKeys")}
      action={{ text: t("createKey"), run: () => setCreating(true) }}
      intro={t("apiKeysIntro")}
      crud={crud}
      columns={columns}
      empty={t("noKeys")}
      pageSize={PAGE_SIZE}
      remove={{
        title: t("revokeKeyTitle"),
        message: (k) => t("revokeKeyMessage", { name: k.name }),
        action: t("revoke"),
        run: (k) => revokeApiKey(k.id),
        done: (k) => t("keyRevoked", { name: k.name }),
      }}
    >
      {creating && <CreateKey onClose={() => setCreating(false)} onCreated={() => crud.list.reload()} />}
    </ResourceListSection>
  );
}

/** Asks for a name (and an optional expiry), then shows the new key once, with a copy button. */
function CreateKey({ onClose, onCreated }: { onClose: () => void; onCreated: () => void }) {
  const [secret, setSecret] = useState<string | null>(null);
  const submitting = useSubmit(async (form) => {
    const expires = String(form.get("expires") ?? "");
    const created = await createApiKey({
      name: String(form.get("name") ?? "").trim(),
      expiresAt: expires ? new Date(`${expires}T23:59:59`).toISOString() : null,
    });
    setSecret(created.key);
    onCreated();
  });
  const { problem } = submitting;
  if (secret)
    return (
      <SecretDialog
        title={t("newKeyTitle")}
        warning={t("newKeyWarning")}
        label={t("newKeyLabel")}
        secret={secret}
        onClose={onClose}
      />
    );
  return (
    <FormDialog title={t("createKey")} submit={t("create")} submitting={submitting} onClose={onClose}>
      <TextField label={t("keyName")} name="name" required maxLength={100} hint={t("keyNameHint")} />
      <TextField
        label={t("expires")}
        name="expires"
        type="date"
        hint={t("expiresHint")}
        error={problem?.field("expiresAt")}
      />
    </FormDialog>
  );
}
