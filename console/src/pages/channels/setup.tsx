import { CopyButton } from "../../components";
import { platformName, usesVerifyToken, type Channel, type Platform } from "./platforms";
import { t, tk } from "./strings";

/** What to do on the platform's side: its steps, the webhook URL and verify token to paste, its documentation. */
export function SetupSection({ channel, platform }: { channel: Channel; platform: Platform }) {
  const name = platformName(channel.channelType);
  const steps = Array.from({ length: platform.steps }, (_, i) => tk(`steps_${channel.channelType}_${i + 1}`));
  // E-mail reaches the Worker through an Email Routing rule, not a URL: nothing to paste.
  const webhook = channel.channelType !== "email";
  return (
    <section class="section" aria-labelledby="channel-setup-title">
      <h2 id="channel-setup-title">{t("setup", { platform: name })}</h2>
      <ol class="channel-steps">
        {steps.map((s) => (
          <li key={s}>{s}</li>
        ))}
      </ol>
      {webhook && (
        <dl class="channel-facts channel-paste">
          <Paste field="webhookUrl" label={t("webhookUrl")} value={channel.webhookUrl} copy={t("copyWebhook")} />
          {usesVerifyToken(channel.channelType) && channel.verifyToken && (
            <Paste field="verifyToken" label={t("verifyToken")} value={channel.verifyToken} copy={t("copyVerify")} />
          )}
        </dl>
      )}
      <p>
        <a href={platform.docs} target="_blank" rel="noopener noreferrer">
          {t("docs", { platform: name })}
        </a>
      </p>
    </section>
  );
}

/** A value to paste on the platform's side (a term of the list): its name, the value, its copy button. */
function Paste({ field, label, value, copy }: { field: string; label: string; value: string; copy: string }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>
        <code class="channel-value" data-field={field}>
          {value}
        </code>
        <CopyButton text={value} name={copy} />
      </dd>
    </>
  );
}
