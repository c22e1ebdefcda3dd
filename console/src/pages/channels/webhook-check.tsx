import { formatTime } from "../../i18n";
import { platformName, type Channel, type Platform } from "./platforms";
import { t } from "./strings";

/**
 * What came of the platform's check of the webhook URL (Meta's, Slack's), a term of the status list: when it passed,
 * when and why the last one was refused (after the pass, when both), or when it is made, before any.
 */
export function WebhookCheck({ channel, verifier }: { channel: Channel; verifier: NonNullable<Platform["verifier"]> }) {
  const refusal = channel.webhookRefusal;
  return (
    <>
      <dt>{t("webhookCheck")}</dt>
      <dd class="channel-webhook-check">
        {channel.webhookVerifiedAt && (
          <span data-check="verified">
            {t(`verified_${verifier}`, { time: formatTime(channel.webhookVerifiedAt) })}
          </span>
        )}
        {refusal && (
          <span class="channel-error" data-check="refused">
            {t(`refused_${refusal.reason}`, { time: formatTime(refusal.at) })}
          </span>
        )}
        {!channel.webhookVerifiedAt && !refusal && <span class="muted">{t(`unverified_${verifier}`)}</span>}
      </dd>
    </>
  );
}

/**
 * What a connected channel with no event yet has left to do: said from the platform's recorded check of the URL
 * where there is one (verified: the subscribed events; refused: that check), else from who points its events here.
 */
export function waitingHint(channel: Channel, platform: Platform): string {
  const name = { platform: platformName(channel.channelType) };
  if (platform.verifier && channel.webhookVerifiedAt) return t("waiting_verified", name);
  if (platform.verifier && channel.webhookRefusal) return t("waiting_refused", name);
  return t(`waiting_${platform.events}`, name);
}
