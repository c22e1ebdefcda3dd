import { useState } from "preact/hooks";
import {
  Button,
  ErrorAlert,
  announce,
  SelectField,
  TextField,
  modelOption,
  useResource,
  useSubmit,
} from "../../components";
import { ask, languageModels, type AskOutcome, type SqlDatabase } from "./api";
import { t } from "./strings";

const cellText = (v: unknown) =>
  v === null || v === undefined ? "NULL" : typeof v === "object" ? JSON.stringify(v) : String(v);

/** A question in words: the SQL the chosen model writes for it, and the rows that SQL returns. */
export function AskSection({ database }: { database: SqlDatabase }) {
  const models = useResource(languageModels, []);
  const [outcome, setOutcome] = useState<AskOutcome | null>(null);
  const {
    busy,
    problem: error,
    submit,
  } = useSubmit(async (form) => {
    const answer = await ask(
      database.id,
      String(form.get("question") ?? ""),
      String(form.get("model") ?? "") || undefined,
    );
    setOutcome(answer);
    announce(
      answer.status === "success"
        ? t("askDone", { n: answer.rowCount })
        : t("askFailed", { error: answer.error ?? "" }),
      answer.status !== "success",
    );
  });
  return (
    <section aria-labelledby="ask-title" class="section">
      <h2 id="ask-title">{t("askTitle")}</h2>
      <p class="muted">{t("askIntro")}</p>
      <form onSubmit={submit} class="ask-form">
        <TextField label={t("question")} name="question" required maxLength={2000} hint={t("questionHint")} />
        {models.data && (
          <SelectField label={t("model")} name="model" options={models.data.results.map((m) => modelOption(m))} />
        )}
        <Button type="submit" variant="primary" busy={busy}>
          {t("askButton")}
        </Button>
      </form>
      <ErrorAlert error={error} />
      {outcome && (
        <div class="ask-outcome">
          <h3 id="sql-title">{t("generatedSql")}</h3>
          {outcome.sql ? (
            <pre class="sql" aria-labelledby="sql-title">
              <code>{outcome.sql}</code>
            </pre>
          ) : (
            <p class="muted">{t("noSql")}</p>
          )}
          {outcome.status !== "success" && (
            <div class="alert error">
              <p>{outcome.error}</p>
            </div>
          )}
          {outcome.status === "success" && (
            <>
              <h3 id="rows-title">{t("resultRows", { n: outcome.rowCount, ms: outcome.durationMs ?? 0 })}</h3>
              {outcome.truncated && <p class="muted">{t("truncated")}</p>}
              <div class="table-wrap" role="region" aria-labelledby="rows-title" tabIndex={0}>
                <table class="table result-table">
                  <thead>
                    <tr>
                      {outcome.columns.map((c) => (
                        <th key={c} scope="col">
                          {c}
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody>
                    {outcome.rows.map((row, i) => (
                      <tr key={i}>
                        {row.map((v, j) => (
                          <td key={j} data-label={outcome.columns[j]}>
                            {cellText(v)}
                          </td>
                        ))}
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </>
          )}
        </div>
      )}
    </section>
  );
}
