import { useState } from "preact/hooks";
import { api, unwrap, type Schemas } from "../../api/client";
import { useSubmit } from "../../components/use-submit";
import { Button } from "../../components/button";
import { ConfirmDialog } from "../../components/confirm";
import { CopyButton } from "../../components/copy-button";
import { Dialog } from "../../components/dialog";
import { ErrorAlert, FormError, Loading, Notice } from "../../components/alert";
import { Pager } from "../../components/pager";
import { TextField } from "../../components/field";
import { toast } from "../../components/toast";
import { useResource } from "../../components/use-resource";
import { DataTable, type Column } from "../../components/data-table";
import { t as common } from "../../components/strings";
import { formatTime } from "../../i18n";
import { t } from "./strings";

type ApiKey = Schemas["ApiKey"];
const PAGE_SIZE = 20;

const statusOf = (key: ApiKey) =>
  key.revokedAt ? "revoked" : key.expiresAt && Number(key.expiresAt) <= Date.now() ? "expired" : "active";

/** The user's API keys: created with the secret shown once (with copy), and revoked. */
export function KeysSection() {
  const [page, setPage] = useState(1);
  const keys = useResource(
    () => unwrap(api.GET("/api/v1/api-keys/", { params: { query: { page, pageSize: PAGE_SIZE } } })),
    [page],
  );
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
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
    {
      label: t("actions"),
      hiddenLabel: true,
      cell: (k) =>
        statusOf(k) === "active" && (
          <div class="row-actions">
            <Button variant="danger" aria-label={t("revokeNamed", { name: k.name })} onClick={() => setRevoking(k)}>
              {t("revoke")}
            </Button>
          </div>
        ),
    },
  ];
  return (
    <section aria-labelledby="keys-title" class="section">
      <div class="section-head">
        <h2 id="keys-title">{t("apiKeys")}</h2>
        <Button variant="primary" onClick={() => setCreating(true)}>
          {t("createKey")}
        </Button>
      </div>
      <p class="muted">{t("apiKeysIntro")}</p>
      <ErrorAlert error={keys.error} />
      {keys.data === undefined ? (
        keys.loading && <Loading />
      ) : keys.data.count === 0 ? (
        <p>{t("noKeys")}</p>
      ) : (
        <DataTable labelledBy="keys-title" rows={keys.data.results} rowKey={(k) => k.id} columns={columns} />
      )}
      {keys.data && <Pager page={page} count={keys.data.count} pageSize={PAGE_SIZE} onPage={setPage} />}
      {creating && <CreateKey onClose={() => setCreating(false)} onCreated={() => keys.reload()} />}
      <ConfirmDialog
        open={!!revoking}
        title={t("revokeKeyTitle")}
        message={t("revokeKeyMessage", { name: revoking?.name ?? "" })}
        action={t("revoke")}
        onClose={() => setRevoking(null)}
        onConfirm={async () => {
          await unwrap(api.DELETE("/api/v1/api-keys/{id}/", { params: { path: { id: revoking!.id } } }));
          toast(t("keyRevoked", { name: revoking!.name }));
          await keys.reload();
        }}
      />
    </section>
  );
}

/** Asks for a name (and an optional expiry), then shows the new key once, with a copy button. */
function CreateKey({ onClose, onCreated }: { onClose: () => void; onCreated: () => void }) {
  const [secret, setSecret] = useState<string | null>(null);
  const { busy, problem, submit } = useSubmit(async (form) => {
    const expires = String(form.get("expires") ?? "");
    const created = await unwrap(
      api.POST("/api/v1/api-keys/", {
        body: {
          name: String(form.get("name") ?? "").trim(),
          expiresAt: expires ? new Date(`${expires}T23:59:59`).toISOString() : null,
        },
      }),
    );
    setSecret(created.key);
    onCreated();
  });
  if (secret)
    return (
      <Dialog
        title={t("newKeyTitle")}
        open
        onClose={onClose}
        footer={
          <Button variant="primary" onClick={onClose}>
            {t("done")}
          </Button>
        }
      >
        <Notice tone="warning">{t("newKeyWarning")}</Notice>
        <div class="secret">
          <TextField
            label={t("newKeyLabel")}
            value={secret}
            readOnly
            onFocus={(e) => e.currentTarget.select()}
            spellcheck={false}
          />
          <CopyButton text={secret} />
        </div>
      </Dialog>
    );
  return (
    <Dialog
      title={t("createKey")}
      open
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>{common("cancel")}</Button>
          <Button type="submit" form="create-key" variant="primary" busy={busy}>
            {t("create")}
          </Button>
        </>
      }
    >
      <form id="create-key" class="stack" onSubmit={submit}>
        <FormError problem={problem} />
        <TextField
          label={t("keyName")}
          name="name"
          required
          maxLength={100}
          hint={t("keyNameHint")}
          error={problem?.field("name")}
        />
        <TextField
          label={t("expires")}
          name="expires"
          type="date"
          hint={t("expiresHint")}
          error={problem?.field("expiresAt")}
        />
      </form>
    </Dialog>
  );
}
