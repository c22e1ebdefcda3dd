import { useEffect, useRef } from "preact/hooks";
import { ApiProblem } from "../../api/client";
import { Button, FormProblem, NewPasswordFields, TextField, FormError, useSubmit } from "../../components";
import { signedIn } from "../../shell/session";
import { arrived, navigate } from "../../shell/router";
import { createSession, register } from "./api";
import { SignedOutCard } from "./card";
import { t } from "./strings";

/**
 * Registration (POST /auth/registration/): a user with an organization of their own, then a console
 * session with the same e-mail and password. Whether registration is open is known only by asking
 * (no public setting says so), so a closed platform answers 403 here and the form says what to do.
 */
export function SignUpForm() {
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    form.current?.querySelector("input")?.focus();
  }, []);
  const { busy, problem, submit } = useSubmit(async (data) => {
    const text = (name: string) => String(data.get(name) ?? "").trim();
    const email = text("email");
    const password = String(data.get("password1") ?? "");
    await register({
      name: text("name"),
      company: text("company"),
      email,
      password1: password,
      password2: String(data.get("password2") ?? ""),
      authSource: { id: "console" },
    });
    const state = await createSession({ email, password });
    navigate("/", { replace: true });
    arrived.value = true;
    signedIn(state);
  });
  // The API's "Registration is disabled." tells no one what to do next.
  const shown = problem?.status === 403 ? new ApiProblem(403, t("registrationClosed"), problem.code) : problem;
  return (
    <SignedOutCard
      title={t("signUpTitle")}
      intro={t("signUpIntro")}
      other={{ question: t("haveAccount"), link: t("signInLink"), path: "/" }}
    >
      <form ref={form} onSubmit={submit}>
        <FormError problem={shown} />
        <FormProblem.Provider value={problem}>
          <TextField label={t("name")} name="name" autoComplete="name" required maxLength={150} />
          <TextField
            label={t("company")}
            name="company"
            autoComplete="organization"
            required
            maxLength={200}
            hint={t("companyHint")}
          />
          <TextField label={t("email")} name="email" type="email" autoComplete="username" required maxLength={254} />
          <NewPasswordFields
            names={["password1", "password2"]}
            labels={[t("newPassword"), t("repeatPassword")]}
            hint={t("newPasswordHint")}
          />
        </FormProblem.Provider>
        <Button type="submit" variant="primary" busy={busy}>
          {busy ? t("signingUp") : t("signUpSubmit")}
        </Button>
      </form>
    </SignedOutCard>
  );
}
