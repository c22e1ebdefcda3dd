import { useEffect, useMemo, useState } from "preact/hooks";
import { InboxAssignmentSection } from "../../components/inbox-assignment";
import { problemOf } from "../../api/client";
import {
  Button,
  SaveBar,
  TextField,
  ErrorAlert,
  FormError,
  Loading,
  Notice,
  PageHeader,
  toast,
  useResource,
  useSubmit,
} from "../../components";
import { BASE, followLink } from "../../shell/router";
import { can } from "../../shell/session";
import { loadWebChat, patchWebChat } from "./api";
import { draftOf, patchOf, previewConfig, type Draft, type WebChat } from "./draft";
import { ColourFields, FeatureFields, GeneralFields, ImageFields, MessageFields } from "./fields";
import { DomainCheck, EmbedSection, IdentitySection } from "./embed";
import { WidgetPreview } from "./preview";
import { t } from "./strings";
import { BusinessHoursForm } from "../../components/business-hours";

/** One web chat: every field, the live preview of the real widget, embedding, identity and domain. */
export function Designer({ id }: { id: string }) {
  const loaded = useResource(() => loadWebChat(id), [id]);
  const [saved, setSaved] = useState<WebChat | null>(null);
  useEffect(() => setSaved(loaded.data?.chat ?? null), [loaded.data]);
  if (!saved || !loaded.data)
    return (
      <>
        {/* Only with an error: a heading shown while loading would take the arrival's focus, then leave with the
            focus when the editor's own heading replaces it. */}
        {loaded.error ? <PageHeader title={t("title")} /> : null}
        <ErrorAlert error={loaded.error} />
        {loaded.loading && <Loading />}
      </>
    );
  return (
    <>
      <Editor key={saved.id} saved={saved} assistantName={loaded.data.assistantName} onSaved={setSaved} />
      {loaded.data.businessHours !== undefined && (
        <BusinessHoursForm
          key={`hours-${saved.id}`}
          inboxId={saved.inbox.id}
          hours={loaded.data.businessHours}
          canManage={can("inbox.manage")}
        />
      )}
    </>
  );
}

function Editor({
  saved,
  assistantName,
  onSaved,
}: {
  saved: WebChat;
  assistantName: string | null;
  onSaved: (chat: WebChat) => void;
}) {
  const canManage = can("inbox.manage");
  const [draft, setDraft] = useState<Draft>(() => draftOf(saved));
  const [dirty, setDirty] = useState(false);
  const [dark, setDark] = useState(saved.defaultThemeMode === "dark");
  // The embed codes' language, which the preview speaks too.
  const [lang, setLang] = useState("");
  const change = (changes: Partial<Draft>) => {
    setDraft((d) => ({ ...d, ...changes }));
    setDirty(true);
  };
  const config = useMemo(() => previewConfig(draft, assistantName), [draft, assistantName]);

  const {
    busy,
    problem,
    submit: save,
  } = useSubmit(async () => {
    try {
      const chat = await patchWebChat(saved.id, patchOf(draft) as never);
      onSaved(chat);
      setDraft(draftOf(chat));
      setDirty(false);
      toast(t("saved", { name: chat.name }));
    } catch (err) {
      const p = problemOf(err);
      // Seen beside the save bar too: the fields may be a long way up this form.
      toast(Object.keys(p.errors).length ? t("fixErrors") : p.detail, "error");
      throw err;
    }
  });
  const props = { draft, change, problem };
  return (
    <>
      <PageHeader title={t("designerTitle", { name: saved.name })}>
        <a class="btn secondary" href={`${BASE}/web-chats`} onClick={followLink}>
          {t("back")}
        </a>
      </PageHeader>
      {!canManage && <Notice>{t("readOnly")}</Notice>}
      {/* First: what most people open this page for is the code to paste, not the 3,000 px of design below. */}
      <EmbedSection chat={saved} lang={lang} setLang={setLang} />
      <h2 class="designer-title">{t("design")}</h2>
      <div class="designer">
        <form class="designer-form stack" onSubmit={save} aria-label={t("designerTitle", { name: saved.name })}>
          <FormError problem={problem} />
          <fieldset class="plain" disabled={!canManage}>
            <div class="stack">
              <GeneralFields {...props} />
              <MessageFields {...props} />
              <fieldset class="designer-group">
                <legend>{t("look")}</legend>
                <ModeSwitch dark={dark} onChange={setDark} />
                <ColourFields {...props} dark={dark} />
              </fieldset>
              <ImageFields
                {...props}
                canUpload={canManage}
                onUploaded={(chat, field) => {
                  onSaved(chat);
                  // Only the uploaded image changes in the draft: other unsaved edits stay.
                  setDraft((d) => ({ ...d, [field]: chat[field] }));
                }}
              />
              <FeatureFields {...props} />
              <fieldset class="designer-group">
                <legend>{t("domain")}</legend>
                <TextField
                  label={t("domainField")}
                  value={draft.domain}
                  spellcheck={false}
                  placeholder="chat.example.com"
                  hint={t("domainHint")}
                  onInput={(e) => change({ domain: e.currentTarget.value })}
                  error={problem?.field("customDomain.domain")}
                />
                <DomainCheck chat={saved} canManage={canManage} onChecked={onSaved} />
              </fieldset>
            </div>
          </fieldset>
          {canManage && (
            <SaveBar text={t("save")} busy={busy}>
              {dirty && <span class="muted">{t("unsaved")}</span>}
            </SaveBar>
          )}
        </form>
        <aside class="designer-preview" aria-labelledby="preview-title">
          <h2 id="preview-title">{t("preview")}</h2>
          <ModeSwitch dark={dark} onChange={setDark} compact />
          <WidgetPreview config={config} dark={dark} lang={lang} />
          <p class="hint">{t("previewHint")}</p>
        </aside>
      </div>
      <IdentitySection chat={saved} canManage={canManage} />
      <InboxAssignmentSection inboxId={saved.inbox.id} />
    </>
  );
}

/** Light or dark: which theme the colour fields edit and the preview shows. */
function ModeSwitch({
  dark,
  onChange,
  compact = false,
}: {
  dark: boolean;
  onChange: (dark: boolean) => void;
  compact?: boolean;
}) {
  return (
    <div class={`mode-switch${compact ? " compact" : ""}`} role="group" aria-label={t("editing")}>
      {!compact && <span class="label">{t("editing")}</span>}
      {([false, true] as const).map((d) => (
        <Button key={String(d)} aria-pressed={dark === d} onClick={() => onChange(d)}>
          {t(d ? "dark" : "light")}
        </Button>
      ))}
    </div>
  );
}
