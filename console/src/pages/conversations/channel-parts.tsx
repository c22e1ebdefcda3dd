import { useState } from "preact/hooks";
import { problemOf } from "../../api/client";
import { Button, toast } from "../../components";
import { can } from "../../shell/session";
import { type Message, retryDelivery } from "./api";
import { t } from "./strings";

/** The platforms' names (product names; e-mail in the chosen language). */
const NAMES: Record<string, string> = {
  line: "LINE",
  telegram: "Telegram",
  messenger: "Messenger",
  instagram: "Instagram",
  whatsapp: "WhatsApp",
  slack: "Slack",
  teams: "Microsoft Teams",
  viber: "Viber",
  line_works: "LINE WORKS",
  team_plus: "Team+",
};
/** A messaging platform's name (the contact panel names web and API inboxes itself). */
export const nameOf = (type: string) => (type === "email" ? t("email") : (NAMES[type] ?? type));

type Json = Record<string, unknown>;

/** What the channel queue records on an outgoing message of a messaging inbox (`metadata.channelDelivery`). */
export interface ChannelDelivery {
  status: "pending" | "sent" | "failed";
  attempts: number;
  error: string | null;
}

export function deliveryOf(m: Message): ChannelDelivery | null {
  const d = (m.metadata as Json | undefined)?.channelDelivery as Json | undefined;
  return d && typeof d.status === "string"
    ? {
        status: d.status as ChannelDelivery["status"],
        attempts: Number(d.attempts ?? 0),
        error: typeof d.error === "string" ? d.error : null,
      }
    : null;
}

/** The platform a message came through (`metadata.channel.type`), as a small tag. */
export function ChannelTag({ m }: { m: Message }) {
  const type = ((m.metadata as Json | undefined)?.channel as Json | undefined)?.type;
  if (typeof type !== "string") return null;
  return (
    <span class="badge channel-tag" title={t("channelTag", { platform: nameOf(type) })}>
      {nameOf(type)}
    </span>
  );
}

const TONE = { pending: "muted", sent: "ok", failed: "failed" } as const;

/**
 * An outgoing message's delivery to its platform: sending, sent or failed (the platform's reason
 * as the tooltip and written out), with Retry on a failed one; `onRetried` reloads the transcript.
 */
export function DeliveryStatus({ m, onRetried }: { m: Message; onRetried: () => void }) {
  const [busy, setBusy] = useState(false);
  const d = deliveryOf(m);
  if (!d) return null;
  const label = t(`delivery_${d.status}`);
  const retry = async () => {
    setBusy(true);
    try {
      await retryDelivery(m.id);
      toast(t("retryQueued"));
      onRetried();
    } catch (err) {
      toast(problemOf(err).detail, "error");
    } finally {
      setBusy(false);
    }
  };
  const errorId = `delivery-error-${m.id}`;
  return (
    <div class="msg-delivery" data-delivery={d.status}>
      <span class="sr-only">{t("delivery")}: </span>
      <span
        class={`status ${TONE[d.status]}`}
        title={d.error ?? (d.attempts > 1 ? t("deliveryAttempts", { status: label, n: d.attempts }) : undefined)}
      >
        {label}
      </span>
      {d.status === "failed" && d.error && (
        <span class="small muted" id={errorId}>
          {d.error}
        </span>
      )}
      {d.status === "failed" && can("conversation.manage") && (
        <Button
          class="small"
          busy={busy}
          onClick={retry}
          aria-label={t("retryNamed")}
          aria-describedby={d.error ? errorId : undefined}
        >
          {t("retryDelivery")}
        </Button>
      )}
    </div>
  );
}
