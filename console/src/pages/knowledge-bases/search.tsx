import { useState } from "preact/hooks";
import { Button, CheckboxField, ErrorAlert, SelectField, TextField, announce, useSubmit } from "../../components";
import { search, type KnowledgeBase, type SearchBody, type SearchResult } from "./api";
import { Highlighted } from "./highlight";
import { t } from "./strings";

const METHODS = ["hybrid", "keyword", "vector"] as const;

/** Asks the base as an assistant would: the ranked passages, their scores and the query's terms marked. */
export function SearchTester({ kb }: { kb: KnowledgeBase }) {
  const [method, setMethod] = useState<NonNullable<SearchBody["searchMethod"]>>("hybrid");
  const [rerank, setRerank] = useState(kb.enableRerank);
  const [results, setResults] = useState<SearchResult[] | null>(null);

  const { busy, problem, submit } = useSubmit(async (form) => {
    const query = String(form.get("query") ?? "").trim();
    const page = await search(kb.id, { query, searchMethod: method, enableRerank: rerank }).catch((err) => {
      setResults(null);
      throw err;
    });
    setResults(page.results);
    announce(t("resultsSay", { count: page.results.length }));
  });

  return (
    <section class="section" aria-labelledby="kb-search-title">
      <h2 id="kb-search-title">{t("tabSearch")}</h2>
      <p class="muted">{t("searchIntro")}</p>
      <form class="kb-search-form" onSubmit={submit}>
        <TextField
          label={t("query")}
          name="query"
          type="search"
          required
          maxLength={2000}
          error={problem?.field("query")}
        />
        <SelectField
          label={t("method")}
          value={method}
          onChange={(e) => setMethod(e.currentTarget.value as typeof method)}
          options={METHODS.map((m) => [m, t(m)])}
        />
        <CheckboxField
          label={t("rerank")}
          checked={rerank}
          disabled={method !== "hybrid"}
          hint={t("rerankHint")}
          onChange={(e) => setRerank(e.currentTarget.checked)}
        />
        <Button type="submit" variant="primary" busy={busy}>
          {t("search")}
        </Button>
      </form>
      {problem && !problem.field("query") && <ErrorAlert error={problem} />}
      {results && (
        <>
          <h3 id="kb-results-title">{t("results")}</h3>
          {results.length === 0 ? (
            <p class="muted">{t("noResults")}</p>
          ) : (
            <ol class="kb-results" aria-labelledby="kb-results-title">
              {results.map((r) => (
                <li key={`${r.type}-${r.id}`} class="kb-result">
                  <div class="kb-result-head">
                    <span class="kb-score" title={String(r.score)}>
                      {t("score", { score: r.score.toFixed(3) })}
                    </span>
                    <meter min={0} max={1} value={r.score} aria-hidden="true" />
                    <span class="badge">{r.type === "faq" ? t("faq") : r.knowledgeBaseFile?.filename}</span>
                    {r.pageStart !== null && (
                      <span class="muted small">
                        {r.pageEnd !== null && r.pageEnd !== r.pageStart
                          ? t("pages", { from: r.pageStart, to: r.pageEnd })
                          : t("page", { page: r.pageStart })}
                      </span>
                    )}
                  </div>
                  <p class="kb-passage">
                    <Highlighted html={r.highlightedText} />
                  </p>
                </li>
              ))}
            </ol>
          )}
        </>
      )}
    </section>
  );
}
