import { useRef, useState } from "preact/hooks";
import { otherwise, problemOf } from "../../api/client";
import {
  ErrorAlert,
  FormError,
  Loading,
  Notice,
  announce,
  Button,
  SaveBar,
  TextField,
  PageHeader,
  toast,
  useResource,
  useAction,
  useSubmit,
} from "../../components";
import { formatTime, locale } from "../../i18n";
import { BASE, followLink } from "../../shell/router";
import { can } from "../../shell/session";
import { connectChannel, getChannel, inboxWithChannel, saveChannel } from "./api";
import { PLATFORMS, platformName, type Channel, type Platform } from "./platforms";
import { SetupSection } from "./setup";
import { WebhookCheck, waitingHint } from "./webhook-check";
import { DisconnectAction } from "./disconnect";
import { InboxAssignmentSection } from "../../components/inbox-assignment";
import { t, tk } from "./strings";
import { BusinessHoursForm } from "../../components/business-hours";

interface Outcome {
  ok: boolean;
  text: string;
}

/** One messaging inbox's channel: its status, its settings (Save, Connect) and how to connect it on the platform. */
export function ChannelPage({ inboxId }: { inboxId: string }) {
  const loaded = useResource(() => inboxWithChannel(inboxId), [inboxId]);
  const [channel, setChannel] = useState<Channel | null>(null);
  // Kept here: the form is made again for each saved state, the platform's answer stays.
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const current = channel?.inboxId === inboxId ? channel : (loaded.data?.channel ?? null);
  if (!loaded.data || !current)
    return (
      <>
        <PageHeader title={t("title")} />
        <ErrorAlert error={loaded.error} />
        {loaded.loading && <Loading />}
      </>
    );
  const type = loaded.data.inbox.channelType;
  const platform = PLATFORMS[type];
  return (
    <>
      <PageHeader title={t("pageTitle", { name: loaded.data.inbox.name, platform: platformName(type) })}>
        <a class="btn secondary" href={`${BASE}/channels`} onClick={followLink}>
          {t("back")}
        </a>
      </PageHeader>
      {platform ? (
        <>
          {!can("inbox.manage") && <Notice>{t("readOnly")}</Notice>}
          <StatusSection
            channel={current}
            platform={platform}
            onDisconnected={(disconnected, warning) => {
              setChannel(disconnected);
              setOutcome(warning ? { ok: false, text: warning } : null);
            }}
          />
          <SettingsForm
            key={`${current.updatedAt}-${current.status}`}
            channel={current}
            platform={platform}
            onChanged={setChannel}
            outcome={outcome}
            setOutcome={setOutcome}
          />
          <SetupSection channel={current} platform={platform} />
          <BusinessHoursForm
            key={`hours-${inboxId}`}
            inboxId={inboxId}
            hours={loaded.data.inbox.businessHours}
            canManage={can("inbox.manage")}
          />
          <InboxAssignmentSection inboxId={inboxId} />
        </>
      ) : (
        <Notice tone="warning">{t("notConnectable", { platform: platformName(type) })}</Notice>
      )}
    </>
  );
}

function StatusSection({
  channel,
  platform,
  onDisconnected,
}: {
  channel: Channel;
  platform: Platform;
  onDisconnected: (channel: Channel, warning: string | null) => void;
}) {
  return (
    <section class="section channel-status-section" aria-labelledby="channel-status-title">
      <h2 id="channel-status-title">{t("status")}</h2>
      <dl class="channel-facts">
        <dt>{t("status")}</dt>
        <dd>
          <span class={`badge channel-status ${channel.status}`} data-status={channel.status}>
            {t(channel.status)}
          </span>
        </dd>
        <dt>{t("lastEvent")}</dt>
        <dd>
          {channel.lastEventAt ? (
            formatTime(channel.lastEventAt)
          ) : (
            <>
              <span class="muted">{t("never")}</span>
              {/* Connected but silent: the one thing left is on the platform's side, said where it is looked for. */}
              {channel.status === "connected" && <p class="small channel-waiting">{waitingHint(channel, platform)}</p>}
            </>
          )}
        </dd>
        {platform.verifier && <WebhookCheck channel={channel} verifier={platform.verifier} />}
        {channel.lastError && (
          <>
            <dt>{t("lastError")}</dt>
            <dd class="channel-error">{channel.lastError}</dd>
          </>
        )}
      </dl>
      {can("inbox.manage") && channel.status !== "not_connected" && (
        <DisconnectAction channel={channel} onDone={onDisconnected} />
      )}
    </section>
  );
}

/**
 * The platform's fields. A secret is a password input, empty, with the saved value's mask as its
 * placeholder: left empty it is not sent (the API keeps it), so a masked value is never saved back.
 * A plain field is sent only when it changed: any change makes the channel not connected again.
 * Connect saves what was changed first: the platform checks what the page shows, never an older
 * token while the one typed is left unsaved (and dropped when the page shows the answer).
 */
function SettingsForm({
  channel,
  platform,
  onChanged,
  outcome,
  setOutcome,
}: {
  channel: Channel;
  platform: Platform;
  onChanged: (c: Channel) => void;
  outcome: Outcome | null;
  setOutcome: (o: Outcome | null) => void;
}) {
  const manage = can("inbox.manage");
  const name = platformName(channel.channelType);
  const formRef = useRef<HTMLFormElement>(null);
  /** What the form would save: a secret typed, a plain field edited. */
  const changes = (form: FormData) => {
    const body: Record<string, string> = {};
    for (const f of platform.fields) {
      const value = String(form.get(f.name) ?? "").trim();
      if (f.secret ? value !== "" : value !== (channel.credentials[f.name] ?? "")) body[f.name] = value;
    }
    return body;
  };
  const { busy, problem, submit } = useSubmit(async (form) => {
    const saved = await saveChannel(channel.inboxId, changes(form));
    setOutcome(null);
    onChanged(saved);
    toast(t("saved", { platform: name }));
  });
  const connecting = useAction(async () => {
    setOutcome(null);
    const body = changes(new FormData(formRef.current ?? undefined));
    // Said here, by the fields' labels and in the page's language, before anything is saved or asked.
    const missing = platform.fields.filter(
      (f) => !f.optional && !(f.name in body ? body[f.name] : channel.credentials[f.name]),
    );
    if (missing.length) {
      const fields = new Intl.ListFormat(locale.value, { type: "conjunction" });
      const text = t("missing", { fields: fields.format(missing.map((f) => tk(`f_${f.name}`))) });
      setOutcome({ ok: false, text });
      return;
    }
    // A refusal of the save (a field the API rejects) is shown at its field, as Save's.
    const saved = Object.keys(body).length ? await saveChannel(channel.inboxId, body) : null;
    try {
      const answer = await connectChannel(channel.inboxId);
      const text = t("connectedToast", { platform: name, detail: answer.detail });
      setOutcome({ ok: true, text });
      onChanged(answer);
      // A status region made in this render is not read by every screen reader: the announcer says it.
      announce(text);
    } catch (err) {
      const p = problemOf(err);
      const text =
        p.code === "channel_connect_failed" ? t("connectFailed", { platform: name, detail: p.detail }) : p.detail;
      setOutcome({ ok: false, text });
      // A refusal is recorded (failing, its reason): the status above shows it, and the form what was saved.
      const fresh = await getChannel(channel.inboxId).catch(otherwise(saved));
      if (fresh && (saved || fresh.status !== channel.status)) onChanged(fresh);
    }
  });
  const shown = problem ?? connecting.problem;
  return (
    <section class="section" aria-labelledby="channel-settings-title">
      <h2 id="channel-settings-title">{t("settings")}</h2>
      <form class="stack channel-form" ref={formRef} onSubmit={submit} aria-labelledby="channel-settings-title">
        <FormError problem={shown} />
        {/* The platform's answer: heard at once when refused, politely when connected. */}
        {outcome && (
          <div
            class={`alert ${outcome.ok ? "success" : "error"} channel-outcome`}
            role={outcome.ok ? "status" : "alert"}
          >
            <p>{outcome.text}</p>
          </div>
        )}
        <fieldset class="plain" disabled={!manage}>
          <div class="stack">
            {platform.fields.map((f) => {
              const saved = channel.credentials[f.name] ?? null;
              return f.secret ? (
                <TextField
                  key={f.name}
                  label={tk(`f_${f.name}`)}
                  name={f.name}
                  type="password"
                  autocomplete="new-password"
                  spellcheck={false}
                  placeholder={saved ?? ""}
                  hint={saved ? t("secretHint", { masked: saved }) : t("secretUnset")}
                  error={shown?.field(f.name)}
                />
              ) : (
                <TextField
                  key={f.name}
                  label={tk(`f_${f.name}`)}
                  name={f.name}
                  spellcheck={false}
                  defaultValue={saved ?? ""}
                  hint={f.optional ? tk(`h_${f.name}`) : undefined}
                  error={shown?.field(f.name)}
                />
              );
            })}
          </div>
        </fieldset>
        {manage && (
          <SaveBar text={t("save")} busy={busy}>
            <Button busy={connecting.busy} onClick={() => connecting.run()} aria-describedby="channel-connect-hint">
              {t("connect")}
            </Button>
            <span class="hint" id="channel-connect-hint">
              {t("connectHint")}
            </span>
          </SaveBar>
        )}
      </form>
    </section>
  );
}
