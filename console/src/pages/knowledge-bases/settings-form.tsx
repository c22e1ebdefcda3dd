import { useEffect, useState } from "preact/hooks";
import {
  createKnowledgeBase,
  formOptions,
  updateKnowledgeBase,
  type KnowledgeBase,
  type KnowledgeBaseWrite,
  type Option,
} from "./api";
import {
  fieldsOf,
  FormProblem,
  TextAreaField,
  CheckList,
  CheckboxField,
  ErrorAlert,
  FormError,
  Loading,
  SelectField,
  TextField,
  firstAvailable,
  modelOption,
  useResource,
  useSubmit,
} from "../../components";
import { t } from "./strings";

const STORES = ["elasticsearch", "opensearch", "oracle", "synxdb"] as const;
type Store = (typeof STORES)[number];
const ELASTICSEARCH_STORES: readonly Store[] = ["elasticsearch", "opensearch"];
/** The stores by their products' own names, the same in every language. */
const STORE_NAMES: Record<Store, string> = {
  elasticsearch: "Elasticsearch",
  opensearch: "OpenSearch",
  oracle: "Oracle Database",
  synxdb: "SynxDB",
};
type Credential = KnowledgeBase["storedCredentials"][number];
/** The write-only credentials each external store takes. */
const CREDENTIALS: Record<Store, Credential[]> = {
  elasticsearch: ["vectorDatabaseApiKey"],
  opensearch: ["opensearchUsername", "opensearchPassword"],
  oracle: ["oracleUser", "oraclePassword"],
  synxdb: ["synxdbUser", "synxdbPassword"],
};

/** The options offered, plus what the record already names (a model or group the member cannot list is still shown). */
const withCurrent = (options: Option[] | null, current: Option[]) => [
  ...(options ?? []),
  ...current.filter((c) => !options?.some((o) => o.id === c.id)),
];

/**
 * Every field of the knowledge base record: creates one (`kb` absent) or changes it. The API's
 * field errors show at their fields. `readOnly` shows the settings without letting them change.
 */
export function SettingsForm({
  kb,
  formId,
  organizationId,
  readOnly = false,
  onSaved,
  onBusy,
}: {
  kb?: KnowledgeBase;
  formId: string;
  organizationId: string;
  readOnly?: boolean;
  onSaved: (kb: KnowledgeBase) => void;
  onBusy?: (busy: boolean) => void;
}) {
  const options = useResource(() => formOptions(organizationId), [organizationId]);
  const [embedding, setEmbedding] = useState(kb?.embeddingModel.id ?? "");
  const [reranker, setReranker] = useState(kb?.rerankerModel.id ?? "");
  const [store, setStore] = useState<Store | "">(kb?.vectorDatabaseType ?? "");
  // Without the organization's feature, the Elasticsearch-speaking stores are not offered (but one in use stays).
  const offeredStores = STORES.filter(
    (s) => options.data?.customElasticsearch || !ELASTICSEARCH_STORES.includes(s) || s === kb?.vectorDatabaseType,
  );
  const data = options.data;
  // A new knowledge base starts on the first model that can answer here.
  const embeddingChoice = embedding || (data && firstAvailable(data.embeddings)?.id) || "";
  const rerankerChoice = reranker || (data && firstAvailable(data.rerankers)?.id) || "";
  const { busy, problem, submit } = useSubmit(async (form) => {
    const text = (name: string) => String(form.get(name) ?? "").trim();
    const body: KnowledgeBaseWrite = {
      name: text("name"),
      description: text("description") || null,
      embeddingModel: embeddingChoice,
      rerankerModel: rerankerChoice,
      numberOfRetrievedChunks: Number(text("numberOfRetrievedChunks")),
      sentenceWindowSize: Number(text("sentenceWindowSize")),
      similarityCutoff: Number(text("similarityCutoff")),
      enableHyde: form.has("enableHyde"),
      enableRerank: form.has("enableRerank"),
      enableRrf: form.has("enableRrf"),
      vectorDatabaseType: store || null,
      vectorDatabaseUrl: store ? text("vectorDatabaseUrl") || null : null,
    };
    // Blank credentials keep what is stored; they are never sent back to us.
    for (const name of store ? CREDENTIALS[store] : []) if (text(name)) body[name] = text(name);
    if (data?.groups) body.groups = form.getAll("groups").map((id) => ({ id: String(id) }));
    if (data?.chatbots) body.chatbots = form.getAll("chatbots").map((id) => ({ id: String(id) }));
    onSaved(kb ? await updateKnowledgeBase(kb.id, body) : await createKnowledgeBase(body));
  });
  // The submit button is the page's or the dialog's, outside this form.
  useEffect(() => onBusy?.(busy), [busy]);
  if (!data) return options.error ? <ErrorAlert error={options.error} /> : <Loading />;
  const { embeddings, rerankers, groups, chatbots } = data;

  /** A required number of the base's settings, `fallback` for a new base. */
  const number = (name: "numberOfRetrievedChunks" | "sentenceWindowSize" | "similarityCutoff", fallback: number) =>
    ({ label: t(name), name, type: "number", required: true, defaultValue: String(kb?.[name] ?? fallback) }) as const;
  const field = fieldsOf(kb, t);
  return (
    <form id={formId} onSubmit={submit} class="stack kb-settings" noValidate={false}>
      <FormError problem={problem} />
      <FormProblem.Provider value={problem}>
        <fieldset disabled={readOnly} class="kb-plain">
          <div class="stack">
            <TextField {...field("name")} required maxLength={200} />
            <TextAreaField {...field("description")} maxLength={10_000} rows={2} />
            <fieldset class="kb-group">
              <legend>{t("models")}</legend>
              <SelectField
                label={t("embeddingModel")}
                value={embeddingChoice}
                onChange={(e) => setEmbedding(e.currentTarget.value)}
                options={withCurrent(embeddings, kb ? [kb.embeddingModel] : []).map((m) => modelOption(m))}
                hint={t("embeddingHint")}
                error={problem?.field("embeddingModel")}
              />
              <SelectField
                label={t("rerankerModel")}
                value={rerankerChoice}
                onChange={(e) => setReranker(e.currentTarget.value)}
                options={withCurrent(rerankers, kb ? [kb.rerankerModel] : []).map((m) => modelOption(m))}
                error={problem?.field("rerankerModel")}
              />
            </fieldset>
            <fieldset class="kb-group">
              <legend>{t("retrieval")}</legend>
              <div class="kb-grid">
                <TextField {...number("numberOfRetrievedChunks", 12)} min={1} max={100} />
                <TextField {...number("sentenceWindowSize", 2)} min={0} max={20} hint={t("sentenceWindowHint")} />
                <TextField
                  {...number("similarityCutoff", 0)}
                  min={0}
                  max={1}
                  step={0.01}
                  hint={t("similarityCutoffHint")}
                />
              </div>
              <CheckboxField label={t("enableRerank")} name="enableRerank" defaultChecked={kb?.enableRerank ?? true} />
              <CheckboxField label={t("enableRrf")} name="enableRrf" defaultChecked={kb?.enableRrf ?? true} />
              <CheckboxField label={t("enableHyde")} name="enableHyde" defaultChecked={kb?.enableHyde ?? false} />
            </fieldset>
            <fieldset class="kb-group">
              <legend>{t("vectorStore")}</legend>
              <SelectField
                label={t("vectorDatabaseType")}
                value={store}
                onChange={(e) => setStore(e.currentTarget.value as Store | "")}
                options={[["", t("ownStore")], ...offeredStores.map((s): [string, string] => [s, STORE_NAMES[s]])]}
                hint={options.data?.customElasticsearch ? undefined : t("customElasticsearchOff")}
                error={problem?.field("vectorDatabaseType")}
              />
              {store && (
                <>
                  <TextField {...field("vectorDatabaseUrl")} required />
                  {CREDENTIALS[store].map((name) => (
                    <TextField
                      key={name}
                      label={t(name)}
                      name={name}
                      type="password"
                      autoComplete="off"
                      hint={kb?.storedCredentials.includes(name) ? t("credentialKept") : t("credentialNew")}
                      error={problem?.field(name)}
                    />
                  ))}
                </>
              )}
            </fieldset>
            <fieldset class="kb-group">
              <legend>{t("access")}</legend>
              <CheckList
                legend={t("groups")}
                name="groups"
                options={groups}
                chosen={kb?.groups}
                empty={groups ? t("noneToChoose") : t("notListed")}
                disabled={!groups}
              />
              <CheckList
                legend={t("chatbots")}
                name="chatbots"
                options={chatbots}
                chosen={kb?.chatbots}
                empty={chatbots ? t("noneToChoose") : t("notListed")}
                disabled={!chatbots}
              />
            </fieldset>
          </div>
        </fieldset>
      </FormProblem.Provider>
    </form>
  );
}
