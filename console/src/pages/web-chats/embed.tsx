import { useState } from "preact/hooks";
import type { Schemas } from "../../api/client";
import { Button, ConfirmDialog, ErrorAlert, Notice, announce, useAction, SecretDialog } from "../../components";
import { rotateIdentitySecret, verifyCustomDomain } from "./api";
import type { WebChat } from "./draft";
import { EmbedCodes } from "./embed-codes";
import { t } from "./strings";

/**
 * Every way to publish the web chat (script tag, iframe, link, React), each with copy: they show the saved settings,
 * in the language chosen above them (`lang`, "" for each visitor's browser's).
 */
export function EmbedSection({
  chat,
  lang,
  setLang,
}: {
  chat: WebChat;
  lang: string;
  setLang: (lang: string) => void;
}) {
  return (
    <section class="section embed-section" aria-labelledby="embed-title">
      <h2 id="embed-title">{t("embed")}</h2>
      <p class="muted">{t("embedIntro")}</p>
      <EmbedCodes webChatId={chat.id} lang={lang} setLang={setLang} />
    </section>
  );
}

/** The identity secret of a private web chat: made (or replaced) on request and shown once. */
export function IdentitySection({ chat, canManage }: { chat: WebChat; canManage: boolean }) {
  const [asking, setAsking] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  return (
    <section class="section" aria-labelledby="identity-title">
      <h2 id="identity-title">{t("identity")}</h2>
      <p class="muted">{t("identityIntro")}</p>
      {chat.accessType !== "private" ? (
        <Notice>{t("identityPublic")}</Notice>
      ) : (
        canManage && <Button onClick={() => setAsking(true)}>{t("rotate")}</Button>
      )}
      <ConfirmDialog
        open={asking}
        title={t("rotateTitle")}
        message={t("rotateMessage")}
        action={t("rotateAction")}
        onClose={() => setAsking(false)}
        onConfirm={async () => {
          const answer = await rotateIdentitySecret(chat.id);
          setSecret(answer.secret);
        }}
      />
      {secret && (
        <SecretDialog
          title={t("secretTitle")}
          warning={t("secretWarning")}
          label={t("secretLabel")}
          secret={secret}
          onClose={() => setSecret(null)}
        />
      )}
    </section>
  );
}

/** The DNS record the verification looks for, as the verify answer names it. */
type Check = Schemas["WebChatDomainCheck"]["verification"];

/** The saved custom domain's verification status, and the DNS check (inside the form's domain group). */
export function DomainCheck({
  chat,
  canManage,
  onChecked,
}: {
  chat: WebChat;
  canManage: boolean;
  onChecked: (chat: WebChat) => void;
}) {
  const [check, setCheck] = useState<Check | null>(null);
  /** Checks the DNS of the saved domain (its name said in the announcement). */
  const verifying = useAction(async (name: string) => {
    const { verification, ...updated } = await verifyCustomDomain(chat.id);
    setCheck(verification);
    onChecked(updated);
    const ok = updated.customDomain?.status === "active";
    announce(t(ok ? "verified" : "notVerified", { domain: name }), !ok);
  });
  const domain = chat.customDomain;
  if (!domain) return <p class="hint">{t("domainIntro")}</p>;
  const status = domain.status;
  return (
    <div class="domain-check">
      <p class="hint">{t("domainIntro")}</p>
      <dl class="facts">
        <dt>{t("domainSaved")}</dt>
        <dd>
          <code>{domain.domain}</code>
        </dd>
        <dt>{t("domainStatus")}</dt>
        <dd>
          <span class={`status ${status === "active" ? "ok" : status === "failed" ? "failed" : "muted"}`}>
            {t(status === "active" ? "activeDomain" : status)}
          </span>
        </dd>
        {check && (
          <>
            <dt>{t("recordName")}</dt>
            <dd>
              <code>{check.recordName}</code>
            </dd>
            <dt>{t("recordValue")}</dt>
            <dd>
              <code>{check.recordValue}</code>
            </dd>
          </>
        )}
      </dl>
      <ErrorAlert error={verifying.problem} />
      {canManage && (
        <Button busy={verifying.busy} onClick={() => verifying.run(domain.domain)}>
          {t("verify")}
        </Button>
      )}
    </div>
  );
}
