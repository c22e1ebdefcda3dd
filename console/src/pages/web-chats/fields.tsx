import type { ApiProblem } from "../../api/client";
import { CheckboxField, SelectField, TextAreaField, TextField } from "../../components/field";
import { COLOURS, FLAGS, HEX, IMAGES, SHADOWS, type Draft, type Theme, type WebChat } from "./draft";
import { ImageUpload, UPLOADABLE, type Uploadable } from "./image-upload";
import { t } from "./strings";

export interface FieldsProps {
  draft: Draft;
  change: (changes: Partial<Draft>) => void;
  problem: ApiProblem | null;
}

/** Name, description, state, access and the full-page back link. */
export function GeneralFields({ draft, change, problem }: FieldsProps) {
  return (
    <fieldset class="designer-group">
      <legend>{t("general")}</legend>
      <TextField
        label={t("name")}
        value={draft.name}
        required
        maxLength={200}
        onInput={(e) => change({ name: e.currentTarget.value })}
        error={problem?.field("name")}
      />
      <TextField
        label={t("description")}
        value={draft.description ?? ""}
        maxLength={2000}
        hint={t("descriptionHint")}
        onInput={(e) => change({ description: e.currentTarget.value })}
        error={problem?.field("description")}
      />
      <CheckboxField
        label={t("isActive")}
        checked={draft.isActive}
        onChange={(e) => change({ isActive: e.currentTarget.checked })}
      />
      <SelectField
        label={t("accessType")}
        value={draft.accessType}
        options={[
          ["public", t("public")],
          ["private", t("private")],
        ]}
        onChange={(e) => change({ accessType: e.currentTarget.value as Draft["accessType"] })}
        error={problem?.field("accessType")}
      />
      <TextField
        label={t("backUrl")}
        value={draft.backUrl ?? ""}
        maxLength={2000}
        hint={t("backUrlHint")}
        onInput={(e) => change({ backUrl: e.currentTarget.value })}
        error={problem?.field("backUrl")}
      />
    </fieldset>
  );
}

/** The image URLs; the avatar and the logo may also be uploaded, which saves them at once. */
export function ImageFields({
  draft,
  change,
  problem,
  canUpload,
  onUploaded,
}: FieldsProps & { canUpload: boolean; onUploaded: (chat: WebChat, field: Uploadable) => void }) {
  return (
    <fieldset class="designer-group">
      <legend>{t("images")}</legend>
      <p class="hint">{t("imagesHint")}</p>
      {IMAGES.map((k) => (
        <div key={k} class="image-field">
          <TextField
            label={t(k)}
            type="url"
            value={draft[k] ?? ""}
            onInput={(e) => change({ [k]: e.currentTarget.value })}
            error={problem?.field(k)}
          />
          {draft[k] && <img class="image-thumb" src={draft[k]!} alt={t("currentImage", { name: t(k) })} />}
          {canUpload && UPLOADABLE.includes(k as Uploadable) && (
            <ImageUpload
              chatId={draft.id}
              field={k as Uploadable}
              label={t(k)}
              onSaved={(chat) => onUploaded(chat, k as Uploadable)}
            />
          )}
        </div>
      ))}
    </fieldset>
  );
}

export function MessageFields({ draft, change, problem }: FieldsProps) {
  return (
    <fieldset class="designer-group">
      <legend>{t("messages")}</legend>
      <TextAreaField
        label={t("greeting")}
        value={draft.displayGreeting}
        hint={t("greetingHint")}
        rows={3}
        onInput={(e) => change({ displayGreeting: e.currentTarget.value })}
        error={problem?.field("displayGreeting")}
      />
      <TextAreaField
        label={t("starters")}
        value={draft.startersText}
        hint={t("startersHint")}
        rows={4}
        onInput={(e) => change({ startersText: e.currentTarget.value })}
        error={problem?.field("displayConversationStarters")}
      />
    </fieldset>
  );
}

/** The colours of the theme being edited (light or dark), each as HEX text with a picker beside it. */
export function ColourFields({ draft, change, problem, dark }: FieldsProps & { dark: boolean }) {
  const key = dark ? "darkTheme" : "theme";
  const theme = draft[key];
  const set = (name: string, value: string | boolean) => change({ [key]: { ...theme, [name]: value } as Theme });
  return (
    <>
      <SelectField
        label={t("themeMode")}
        value={draft.defaultThemeMode ?? "system"}
        options={[
          ["system", t("system")],
          ["light", t("light")],
          ["dark", t("dark")],
        ]}
        onChange={(e) => change({ defaultThemeMode: e.currentTarget.value as Draft["defaultThemeMode"] })}
      />
      <p class="hint">{t("colourHint")}</p>
      <div class="colour-grid">
        {COLOURS.map((name) => {
          const value = String(theme[name] ?? "");
          return (
            <div class="colour" key={`${key}.${name}`}>
              <TextField
                label={t(name)}
                value={value}
                maxLength={7}
                spellcheck={false}
                placeholder="#3366FF"
                onInput={(e) => set(name, e.currentTarget.value)}
                error={problem?.field(`${key}.${name}`)}
              />
              <input
                type="color"
                class={HEX.test(value) ? "" : "unset"}
                aria-label={t("pick", { name: t(name) })}
                value={HEX.test(value) && value.length === 7 ? value : "#000000"}
                onInput={(e) => set(name, e.currentTarget.value)}
              />
            </div>
          );
        })}
      </div>
      {SHADOWS.map((name) => (
        <CheckboxField
          key={`${key}.${name}`}
          label={t(name)}
          checked={!!theme[name]}
          onChange={(e) => set(name, e.currentTarget.checked)}
        />
      ))}
    </>
  );
}

export function FeatureFields({ draft, change }: FieldsProps) {
  return (
    <fieldset class="designer-group">
      <legend>{t("features")}</legend>
      {FLAGS.map((k) => (
        <CheckboxField
          key={k}
          label={t(k)}
          checked={draft[k]}
          onChange={(e) => change({ [k]: e.currentTarget.checked })}
        />
      ))}
    </fieldset>
  );
}
