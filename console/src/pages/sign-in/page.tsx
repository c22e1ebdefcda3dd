import { useEffect, useRef, useState } from "preact/hooks";
import { ApiProblem } from "../../api/client";
import { Button, FormProblem, TextField, FormError, announce, useSubmit } from "../../components";
import { signedIn } from "../../shell/session";
import { arrived, currentPath } from "../../shell/router";
import { createSession } from "./api";
import { SignedOutCard } from "./card";
import { SignUpForm } from "./sign-up";
import { t } from "./strings";

type Method = "password" | "key";

/**
 * Sign-in with e-mail and password, or with an API key (the bootstrap administrator has only a
 * key). Either creates a console session; the console never stores the key.
 */
export default function SignInPage() {
  // Signed out, every address shows this page; /console/sign-up shows the registration form.
  if (currentPath.value === "/sign-up") return <SignUpForm />;
  return <SignInForm />;
}

function SignInForm() {
  const [method, setMethod] = useState<Method>("password");
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    form.current?.querySelector("input")?.focus();
  }, [method]);

  const { busy, problem, submit, clear } = useSubmit(async (data) => {
    const body =
      method === "password"
        ? { email: String(data.get("email")), password: String(data.get("password")) }
        : { apiKey: String(data.get("apiKey")) };
    const state = await createSession(body);
    announce(t("signedIn"));
    arrived.value = true;
    signedIn(state);
  });
  // Another way of signing in: the refusal of the last one no longer applies.
  const choose = (next: Method) => {
    setMethod(next);
    clear();
  };
  const alert =
    problem &&
    (problem.code === "invalid_credentials"
      ? new ApiProblem(problem.status, t("invalidCredentials"), problem.code)
      : problem);

  return (
    <SignedOutCard
      title={t("title")}
      intro={t("intro")}
      other={{ question: t("noAccount"), link: t("signUpLink"), path: "/sign-up" }}
    >
      <DevHint />
      <div class="segmented" role="group" aria-label={t("method")}>
        <button type="button" class="btn quiet" aria-pressed={method === "password"} onClick={() => choose("password")}>
          {t("withPassword")}
        </button>
        <button type="button" class="btn quiet" aria-pressed={method === "key"} onClick={() => choose("key")}>
          {t("withKey")}
        </button>
      </div>
      <form ref={form} onSubmit={submit}>
        <FormError problem={alert} />
        <FormProblem.Provider value={problem}>
          {method === "password" ? (
            <>
              <TextField label={t("email")} name="email" type="email" autoComplete="username" required />
              <TextField
                label={t("password")}
                name="password"
                type="password"
                autoComplete="current-password"
                required
              />
            </>
          ) : (
            <TextField
              label={t("apiKey")}
              name="apiKey"
              type="password"
              autoComplete="off"
              spellcheck={false}
              required
              hint={t("apiKeyHint")}
            />
          )}
        </FormProblem.Provider>
        <Button type="submit" variant="primary" busy={busy}>
          {busy ? t("signingIn") : t("submit")}
        </Button>
      </form>
    </SignedOutCard>
  );
}

/** Where a newcomer running the platform finds the first sign-in. */
function DevHint() {
  const [before, after] = t("devHint").split("{command}");
  return (
    <p class="hint">
      {before}
      <code>npm run dev</code>
      {after}
    </p>
  );
}
