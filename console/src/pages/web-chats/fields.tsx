import type { ApiProblem } from "../../api/client";
import { CheckboxField, SelectField, TextAreaField, TextField } from "../../components";
import { COLOURS, FLAGS, HEX, IMAGES, SHADOWS, type Draft, type Theme, type WebChat } from "./draft";
import { ImageUpload, UPLOADABLE, type Uploadable } from "./image-upload";
import { t } from "./strings";

export interface FieldsProps {
  draft: Draft;
  change: (changes: Partial<Draft>) => void;
  problem: ApiProblem | null;
}

/** A text field of the draft named `key`: its value (empty for none), its input and the API's message at that name. */
function textOf(
  { draft, change, problem }: FieldsProps,
  key: "name" | "description" | "backUrl" | "displayGreeting" | (typeof IMAGES)[number],
) {
  return {
    value: draft[key] ?? "",
    onInput: (e: Event) => change({ [key]: (e.currentTarget as HTMLInputElement).value }),
    error: problem?.field(key),
  };
}

/** Name, description, state, access and the full-page back link. */
export function GeneralFields(props: FieldsProps) {
  const { draft, change, problem } = props;
  return (
    <fieldset class="designer-group">
      <legend>{t("general")}</legend>
      <TextField label={t("name")} required maxLength={200} {...textOf(props, "name")} />
      <TextField
        label={t("description")}
        maxLength={2000}
        hint={t("descriptionHint")}
        {...textOf(props, "description")}
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
      <TextField label={t("backUrl")} maxLength={2000} hint={t("backUrlHint")} {...textOf(props, "backUrl")} />
    </fieldset>
  );
}

/** The image URLs; the avatar and the logo may also be uploaded, which saves them at once. */
export function ImageFields(
  props: FieldsProps & { canUpload: boolean; onUploaded: (chat: WebChat, field: Uploadable) => void },
) {
  const { draft, canUpload, onUploaded } = props;
  return (
    <fieldset class="designer-group">
      <legend>{t("images")}</legend>
      <p class="hint">{t("imagesHint")}</p>
      {IMAGES.map((k) => (
        <div key={k} class="image-field">
          <TextField label={t(k)} type="url" {...textOf(props, k)} />
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

export function MessageFields(props: FieldsProps) {
  const { draft, change, problem } = props;
  return (
    <fieldset class="designer-group">
      <legend>{t("messages")}</legend>
      <TextAreaField label={t("greeting")} hint={t("greetingHint")} rows={3} {...textOf(props, "displayGreeting")} />
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
