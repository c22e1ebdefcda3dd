import type { ComponentChildren } from "preact";
import { Markdown, Notice } from "../../components";
import { formatTime } from "../../i18n";
import type { Assistant, IdName } from "./api";
import { t } from "./strings";

const names = (items: IdName[]) => (items.length ? items.map((i) => i.name).join(", ") : "—");
const orNone = (v: string | null | undefined) => (v ? v : "—");

/** The assistant as a member who may not change it sees it: every field, and no controls. */
export function AssistantSummary({ assistant: a }: { assistant: Assistant }) {
  return (
    <section class="assistant-summary" aria-labelledby="settings-title">
      <h2 id="settings-title">{t("settings")}</h2>
      <Notice>{t("readOnly")}</Notice>
      <dl class="facts">
        <Fact label={t("instructions")}>{a.instructions ? <Markdown source={a.instructions} /> : "—"}</Fact>
        <Fact label={t("llm")}>{a.largeLanguageModel.name}</Fact>
        <Fact label={t("fallbackModel")}>{orNone(a.fallbackLargeLanguageModel?.name)}</Fact>
        <Fact label={t("embeddingModel")}>{orNone(a.embeddingModel?.name)}</Fact>
        <Fact label={t("rerankerModel")}>{orNone(a.rerankerModel?.name)}</Fact>
        <Fact label={t("replyMode")}>{t(`mode_${a.replyMode}`)}</Fact>
        {a.template && <Fact label={t("template")}>{a.template}</Fact>}
        <Fact label={t("unanswerable")}>{orNone(a.unanswerableTemplate)}</Fact>
        <Fact label={t("agentMode")}>{t(`agent_${a.agentMode}`)}</Fact>
        <Fact label={t("chunks")}>{a.numberOfRetrievedChunks}</Fact>
        <Fact label={t("inlineCitations")}>{a.enableInLineCitations ? t("yes") : t("no")}</Fact>
        <Fact label={t("handoffEnabled")}>{a.handoff.enabled ? t("yes") : t("no")}</Fact>
        <Fact label={t("handoffAfter")}>{a.handoff.afterUnanswered}</Fact>
        <Fact label={t("handoffMessage")}>{orNone(a.handoff.message)}</Fact>
        <Fact label={t("outputMode")}>{t(`output_${a.outputMode}`)}</Fact>
        {a.rawOutputFormat && (
          <Fact label={t("outputSchema")}>
            <pre>{JSON.stringify(a.rawOutputFormat, null, 2)}</pre>
          </Fact>
        )}
        <Fact label={t("knowledgeBases")}>{names(a.knowledgeBases)}</Fact>
        <Fact label={t("tools")}>{names(a.tools)}</Fact>
        <Fact label={t("skills")}>{names(a.skills)}</Fact>
        <Fact label={t("groups")}>{names(a.groups)}</Fact>
        <Fact label={t("evaluation")}>{a.enableEvaluation ? t("yes") : t("no")}</Fact>
        <Fact label={t("databaseType")}>{orNone(a.databaseType)}</Fact>
        <Fact label={t("databaseUrl")}>{orNone(a.databaseUrl)}</Fact>
        <Fact label={t("wordsUsedLabel")}>{a.totalWordsCount}</Fact>
        <Fact label={t("updated")}>{formatTime(a.updatedAt)}</Fact>
      </dl>
    </section>
  );
}

function Fact({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}
