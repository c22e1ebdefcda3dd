import { useEffect, useRef, useState } from "preact/hooks";
import { ApiProblem, api, problemOf, unwrap } from "../../api/client";
import { Button } from "../../components/button";
import { TextField } from "../../components/field";
import { ErrorAlert } from "../../components/alert";
import { announce } from "../../components/announcer";
import { LOCALES, locale, setLocale, type Locale } from "../../i18n";
import { signedIn } from "../../shell/session";
import { arrived } from "../../shell/router";
import { t } from "./strings";

type Method = "password" | "key";

/**
 * Sign-in with e-mail and password, or with an API key (the bootstrap administrator has only a
 * key). Either creates a console session; the console never stores the key.
 */
export default function SignInPage() {
  const [method, setMethod] = useState<Method>("password");
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    document.title = `${t("title")} · Console`;
    form.current?.querySelector("input")?.focus();
  }, [method]);

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget as HTMLFormElement);
    const body = method === "password" ? { email: String(data.get("email")), password: String(data.get("password")) } : { apiKey: String(data.get("apiKey")) };
    setBusy(true);
    setProblem(null);
    try {
      const state = await unwrap(api.POST("/api/v1/auth/sessions/", { body }));
      announce(t("signedIn"));
      arrived.value = true;
      signedIn(state);
    } catch (err) {
      setBusy(false);
      setProblem(problemOf(err));
    }
  };
  const alert = problem && (problem.code === "invalid_credentials" ? new ApiProblem(problem.status, t("invalidCredentials"), problem.code) : problem);

  return (
    <main class="sign-in" id="main">
      <div class="card">
        <h1>{t("title")}</h1>
        <p class="muted">{t("intro")}</p>
        <div class="segmented" role="group" aria-label={t("method")}>
          <button type="button" class="btn quiet" aria-pressed={method === "password"} onClick={() => setMethod("password")}>{t("withPassword")}</button>
          <button type="button" class="btn quiet" aria-pressed={method === "key"} onClick={() => setMethod("key")}>{t("withKey")}</button>
        </div>
        <form ref={form} onSubmit={submit}>
          {method === "password" ? (
            <>
              <TextField label={t("email")} name="email" type="email" autoComplete="username" required error={problem?.field("email")} />
              <TextField label={t("password")} name="password" type="password" autoComplete="current-password" required error={problem?.field("password")} />
            </>
          ) : (
            <TextField label={t("apiKey")} name="apiKey" type="password" autoComplete="off" spellcheck={false} required hint={t("apiKeyHint")} error={problem?.field("apiKey")} />
          )}
          {alert && !Object.keys(alert.errors).length && <ErrorAlert error={alert} />}
          <Button type="submit" variant="primary" busy={busy}>{busy ? t("signingIn") : t("submit")}</Button>
        </form>
        <label class="compact language">
          <span>Language · 語言</span>
          <select value={locale.value} onChange={(e) => setLocale(e.currentTarget.value as Locale)}>
            {LOCALES.map((l) => (
              <option key={l.id} value={l.id} lang={l.id}>{l.name}</option>
            ))}
          </select>
        </label>
      </div>
    </main>
  );
}
