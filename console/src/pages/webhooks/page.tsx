import { useState } from "preact/hooks";
import { problemOf } from "../../api/client";
import {
  ErrorAlert,
  Loading,
  Notice,
  announce,
  toast,
  Button,
  useRemoval,
  DataTable,
  type Column,
  Dialog,
  SelectField,
  PageHeader,
  SectionHead,
  useResource,
} from "../../components";
import { formatTime } from "../../i18n";
import type { PageProps } from "../types";
import { Body, DeliveriesSection, DeliveryStatus } from "./deliveries-section";
import { t } from "./strings";
import { deleteWebhook, listInboxes, listWebhooks, sendTestEvent, type TestResult, type Webhook } from "./api";
import { WebhookForm } from "./webhook-form";

/** The webhooks of an inbox: their settings, a test send, and the deliveries of the one chosen. */
export default function WebhooksPage({ organizationId }: PageProps) {
  const inboxes = useResource(listInboxes, [organizationId]);
  const [picked, setPicked] = useState("");
  const inbox = inboxes.data?.find((i) => i.id === picked) ?? inboxes.data?.[0];
  return (
    <>
      <PageHeader title={t("title")} />
      <p class="muted">{t("intro")}</p>
      <ErrorAlert error={inboxes.error} />
      {inboxes.data === undefined ? (
        inboxes.loading && <Loading />
      ) : !inbox ? (
        <Notice>{t("noInboxes")}</Notice>
      ) : (
        <>
          <div class="webhook-filters">
            <SelectField
              label={t("inbox")}
              value={inbox.id}
              onChange={(e) => setPicked(e.currentTarget.value)}
              options={inboxes.data.map((i): [string, string] => [i.id, i.name])}
            />
          </div>
          <InboxWebhooks key={inbox.id} inboxId={inbox.id} inboxName={inbox.name} />
        </>
      )}
    </>
  );
}

function InboxWebhooks({ inboxId, inboxName }: { inboxId: string; inboxName: string }) {
  const hooks = useResource(() => listWebhooks(inboxId), [inboxId]);
  const [editing, setEditing] = useState<Webhook | "new" | null>(null);
  const [chosen, setChosen] = useState<string | null>(null);
  const [testing, setTesting] = useState<string | null>(null);
  const [tested, setTested] = useState<{ webhook: Webhook; result: TestResult } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const removal = useRemoval<Webhook>({
    title: t("deleteTitle"),
    message: (w) => t("deleteMessage", { name: w.name }),
    run: async (w) => {
      await deleteWebhook(inboxId, w.id);
      if (chosen === w.id) setChosen(null);
    },
    done: (w) => t("deleted", { name: w.name }),
    after: hooks.reload,
  });

  // The button stays enabled (and focused) while it sends, so the focus can come back to it after the result's dialog.
  const sendTest = async (webhook: Webhook) => {
    if (testing) return;
    setTesting(webhook.id);
    setError(null);
    try {
      const result = await sendTestEvent(inboxId, webhook.id);
      setTested({ webhook, result });
      announce(
        result.ok
          ? t("testOk", { code: result.statusCode ?? "", ms: result.durationMs ?? 0 })
          : t("testFailed", { error: result.error ?? "" }),
        !result.ok,
      );
    } catch (err) {
      setError(problemOf(err));
    } finally {
      setTesting(null);
    }
  };

  const columns: Column<Webhook>[] = [
    { label: t("name"), rowHeader: true, cell: (w) => w.name },
    { label: t("direction"), cell: (w) => t(w.direction) },
    {
      label: t("url"),
      class: "wrap",
      cell: (w) => (
        <>
          <code>{w.method}</code> {w.url}
        </>
      ),
    },
    { label: t("status"), class: "text", cell: (w) => <WebhookState webhook={w} /> },
    { label: t("retries"), cell: (w) => (w.retryFailedDeliveries ? t("retryOn") : t("retryOff")) },
    { label: t("secret"), cell: (w) => (w.hasSecretToken ? <code>{w.secretTokenPreview}</code> : t("noSecret")) },
    {
      label: t("actions"),
      hiddenLabel: true,
      cell: (w) => (
        <div class="row-actions">
          <Button
            aria-label={t("sendTestNamed", { name: w.name })}
            aria-busy={testing === w.id || undefined}
            onClick={() => sendTest(w)}
          >
            {testing === w.id ? t("sendingTest") : t("sendTest")}
          </Button>
          <Button
            aria-label={t("deliveriesNamed", { name: w.name })}
            aria-pressed={chosen === w.id}
            onClick={() => setChosen(w.id)}
          >
            {t("deliveries")}
          </Button>
          <Button aria-label={t("editNamed", { name: w.name })} onClick={() => setEditing(w)}>
            {t("edit")}
          </Button>
          <Button variant="danger" aria-label={t("deleteNamed", { name: w.name })} onClick={() => removal.ask(w)}>
            {t("delete")}
          </Button>
        </div>
      ),
    },
  ];
  const list = hooks.data?.results;
  const shown = list?.find((w) => w.id === chosen);
  return (
    <>
      <section aria-labelledby="webhooks-title" class="section">
        <SectionHead
          id="webhooks-title"
          title={t("webhooksOf", { inbox: inboxName })}
          action={{ text: t("addWebhook"), run: () => setEditing("new") }}
        />
        <ErrorAlert error={hooks.error ?? error} />
        {list === undefined ? (
          hooks.loading && <Loading />
        ) : list.length === 0 ? (
          <p>{t("noWebhooks")}</p>
        ) : (
          <DataTable labelledBy="webhooks-title" rows={list} rowKey={(w) => w.id} columns={columns} />
        )}
      </section>
      {shown && <DeliveriesSection key={shown.id + shown.updatedAt} inboxId={inboxId} webhook={shown} />}
      {editing && (
        <WebhookForm
          inboxId={inboxId}
          webhook={editing === "new" ? undefined : editing}
          onClose={() => setEditing(null)}
          onSaved={(w) => {
            toast(t("saved", { name: w.name }));
            hooks.reload();
          }}
        />
      )}
      {tested && <TestResultDialog {...tested} onClose={() => setTested(null)} />}
      {removal.dialog}
    </>
  );
}

/** Enabled, disabled by a member, or disabled by the service with when and why. */
function WebhookState({ webhook: w }: { webhook: Webhook }) {
  if (w.isEnabled) return <span class="status ok">{t("enabled")}</span>;
  if (w.disabledAt)
    return (
      <span class="status failed">
        {t("disabledByService", { time: formatTime(w.disabledAt), reason: w.disabledReason ?? "" })}
      </span>
    );
  return <span class="status muted">{t("disabled")}</span>;
}

/** What a test send came to: the outcome in words, then what was sent and what came back. */
function TestResultDialog({ webhook, result, onClose }: { webhook: Webhook; result: TestResult; onClose: () => void }) {
  return (
    <Dialog title={t("testTitle", { name: webhook.name })} open onClose={onClose}>
      <p>
        <DeliveryStatus delivery={{ status: result.ok ? "success" : "failure", statusCode: result.statusCode }} />{" "}
        {result.ok
          ? t("testOk", { code: result.statusCode ?? "", ms: result.durationMs ?? 0 })
          : t("testFailed", { error: result.error ?? "" })}
      </p>
      <Body label={t("requestBody")} text={result.requestBody} />
      <Body label={t("response")} text={result.response} />
    </Dialog>
  );
}
