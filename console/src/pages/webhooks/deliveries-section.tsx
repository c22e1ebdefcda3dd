import { useState } from "preact/hooks";
import { problemOf } from "../../api/client";
import {
  ErrorAlert,
  Loading,
  toast,
  Button,
  ConfirmDialog,
  DataTable,
  type Column,
  Dialog,
  SelectField,
  Pager,
  useResource,
} from "../../components";
import { formatTime } from "../../i18n";
import { t } from "./strings";
import { type Delivery, listDeliveries, redeliverFailed, redeliverRecord, type Webhook } from "./api";
const PAGE_SIZE = 20;
const STATUSES = ["success", "failure", "pending", "sending"] as const;

/** "Delivered · 200", "Failed · 503", "Pending": the outcome of an attempt, in words and code. */
export function DeliveryStatus({ delivery }: { delivery: Pick<Delivery, "status" | "statusCode"> }) {
  const tone = delivery.status === "success" ? "ok" : delivery.status === "failure" ? "failed" : "muted";
  return (
    <span class={`status ${tone}`}>
      {t(delivery.status)}
      {delivery.statusCode !== null && ` · ${delivery.statusCode}`}
    </span>
  );
}

/**
 * A webhook's delivery records, newest first, filtered by status: each attempt's time, event,
 * attempt number, outcome and duration; its request and response in a dialog; redeliver an event
 * from its record, or every failed event at once.
 */
export function DeliveriesSection({ inboxId, webhook }: { inboxId: string; webhook: Webhook }) {
  const [status, setStatus] = useState("");
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<Delivery | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const records = useResource(
    () =>
      listDeliveries(inboxId, webhook.id, {
        page,
        pageSize: PAGE_SIZE,
        status: (status || undefined) as Delivery["status"] | undefined,
      }),
    [inboxId, webhook.id, status, page],
  );

  const redeliver = async (d: Delivery) => {
    setError(null);
    try {
      const attempt = await redeliverRecord(inboxId, webhook.id, d.id);
      toast(t("redelivered", { attempt: attempt.attempt }));
      await records.reload();
    } catch (err) {
      setError(problemOf(err));
    }
  };

  const columns: Column<Delivery>[] = [
    { label: t("time"), rowHeader: true, class: "nowrap", cell: (d) => formatTime(d.createdAt) },
    { label: t("event"), cell: (d) => <code title={d.eventId}>{d.eventId.slice(-12)}</code> },
    { label: t("attempt"), class: "num", cell: (d) => d.attempt },
    { label: t("status"), cell: (d) => <DeliveryStatus delivery={d} /> },
    {
      label: t("duration"),
      class: "num",
      cell: (d) => (d.durationMs === null ? t("none") : t("ms", { ms: d.durationMs })),
    },
    {
      label: t("actions"),
      hiddenLabel: true,
      cell: (d) => {
        const named = { attempt: d.attempt, event: d.eventId.slice(-12) };
        return (
          <div class="row-actions">
            <Button aria-label={t("detailsNamed", named)} onClick={() => setOpen(d)}>
              {t("details")}
            </Button>
            {webhook.isEnabled && (d.status === "success" || d.status === "failure") && (
              <Button aria-label={t("redeliverNamed", named)} onClick={() => redeliver(d)}>
                {t("redeliver")}
              </Button>
            )}
          </div>
        );
      },
    },
  ];
  const data = records.data;
  return (
    <section aria-labelledby="deliveries-title" class="section">
      <div class="section-head">
        <h2 id="deliveries-title">{t("deliveriesOf", { name: webhook.name })}</h2>
        <div class="row-actions">
          <Button onClick={() => records.reload()} busy={records.loading}>
            {t("refresh")}
          </Button>
          {webhook.isEnabled && <Button onClick={() => setConfirming(true)}>{t("redeliverFailed")}</Button>}
        </div>
      </div>
      <p class="muted">{t("deliveriesIntro")}</p>
      <div class="webhook-filters">
        <SelectField
          label={t("filterStatus")}
          value={status}
          onChange={(e) => {
            setPage(1);
            setStatus(e.currentTarget.value);
          }}
          options={[["", t("allStatuses")], ...STATUSES.map((s): [string, string] => [s, t(s)])]}
        />
      </div>
      <ErrorAlert error={records.error ?? error} />
      {data === undefined ? (
        records.loading && <Loading />
      ) : data.count === 0 ? (
        <p>{t("noDeliveries")}</p>
      ) : (
        <DataTable labelledBy="deliveries-title" rows={data.results} rowKey={(d) => d.id} columns={columns} />
      )}
      {data && <Pager page={page} count={data.count} pageSize={PAGE_SIZE} onPage={setPage} />}
      {open && <DeliveryDetails delivery={open} onClose={() => setOpen(null)} />}
      <ConfirmDialog
        open={confirming}
        title={t("redeliverFailedTitle")}
        message={t("redeliverFailedMessage", { name: webhook.name })}
        action={t("redeliver")}
        onClose={() => setConfirming(false)}
        onConfirm={async () => {
          const queued = await redeliverFailed(inboxId, webhook.id);
          toast(t("redeliverFailedDone", { count: queued.count }));
          await records.reload();
        }}
      />
    </section>
  );
}

/** Everything an attempt recorded: where it went, the body sent, the answer, the error. */
function DeliveryDetails({ delivery: d, onClose }: { delivery: Delivery; onClose: () => void }) {
  return (
    <Dialog title={t("detailsNamed", { attempt: d.attempt, event: d.eventId.slice(-12) })} open onClose={onClose}>
      <dl class="details">
        <dt>{t("status")}</dt>
        <dd>
          <DeliveryStatus delivery={d} />
        </dd>
        <dt>{t("eventId")}</dt>
        <dd>
          <code>{d.eventId}</code>
        </dd>
        <dt>{t("sentTo")}</dt>
        <dd class="wrap">{d.url ?? t("none")}</dd>
        <dt>{t("time")}</dt>
        <dd>{formatTime(d.deliveredAt ?? d.scheduledAt)}</dd>
        <dt>{t("duration")}</dt>
        <dd>{d.durationMs === null ? t("none") : t("ms", { ms: d.durationMs })}</dd>
        {d.error && (
          <>
            <dt>{t("error")}</dt>
            <dd>{d.error}</dd>
          </>
        )}
      </dl>
      <Body label={t("requestBody")} text={d.requestBody} />
      <Body label={t("response")} text={d.response} />
    </Dialog>
  );
}

/** A JSON body, pretty-printed when it parses, as text (never HTML). */
export function Body({ label, text }: { label: string; text: string | null }) {
  let shown = text ?? "";
  try {
    shown = JSON.stringify(JSON.parse(shown), null, 2);
  } catch {
    // The body is whatever the webhook's server sent (or was sent), JSON or not: shown as it is.
  }
  return (
    <div class="body-block">
      <h3>{label}</h3>
      {text ? (
        <pre tabIndex={0} aria-label={label}>
          {shown}
        </pre>
      ) : (
        <p class="muted">{t("none")}</p>
      )}
    </div>
  );
}
