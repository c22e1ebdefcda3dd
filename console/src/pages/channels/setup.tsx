import { CopyButton } from "../../components/copy-button";
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
          <dt>{t("webhookUrl")}</dt>
          <dd>
            <code class="channel-value" data-field="webhookUrl">
              {channel.webhookUrl}
            </code>
            <CopyButton text={channel.webhookUrl} name={t("copyWebhook")} />
          </dd>
          {usesVerifyToken(channel.channelType) && channel.verifyToken && (
            <>
              <dt>{t("verifyToken")}</dt>
              <dd>
                <code class="channel-value" data-field="verifyToken">
                  {channel.verifyToken}
                </code>
                <CopyButton text={channel.verifyToken} name={t("copyVerify")} />
              </dd>
            </>
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
