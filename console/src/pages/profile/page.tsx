import { useRef } from "preact/hooks";
import { Button } from "../../components/button";
import { FormError } from "../../components/alert";
import { TextField } from "../../components/field";
import { PageHeader } from "../../components/page-header";
import { toast } from "../../components/toast";
import { useSubmit } from "../../components/use-submit";
import { session } from "../../shell/session";
import { KeysSection } from "../models/keys-section";
import { SessionsSection } from "../models/sessions-section";
import { changePassword, updateMe } from "./api";
import { t } from "./strings";

/** The signed-in user's own page: their name and e-mail, their password, their API keys and console sessions. */
export default function ProfilePage() {
  return (
    <>
      <PageHeader title={t("title")} />
      <DetailsSection />
      <PasswordSection />
      <KeysSection />
      <SessionsSection />
    </>
  );
}

function DetailsSection() {
  const user = session.value!.user;
  const { busy, problem, submit } = useSubmit(async (form) => {
    const saved = await updateMe({
      name: String(form.get("name") ?? "").trim(),
      email: String(form.get("email") ?? "").trim(),
    });
    // The banner's "Signed in as" reads the session: it follows at once.
    if (session.value) session.value = { ...session.value, user: saved };
    toast(t("detailsSaved"));
  });
  return (
    <section class="section" aria-labelledby="details-title">
      <h2 id="details-title">{t("details")}</h2>
      <p class="muted">{t("detailsIntro")}</p>
      <form class="stack profile-form" onSubmit={submit}>
        <FormError problem={problem} />
        <TextField
          label={t("name")}
          name="name"
          autoComplete="name"
          required
          maxLength={150}
          defaultValue={user.name}
          error={problem?.field("name")}
        />
        <TextField
          label={t("email")}
          name="email"
          type="email"
          autoComplete="email"
          required
          maxLength={254}
          defaultValue={user.email}
          hint={t("emailHint")}
          error={problem?.field("email")}
        />
        <div>
          <Button type="submit" variant="primary" busy={busy}>
            {t("save")}
          </Button>
        </div>
      </form>
    </section>
  );
}

function PasswordSection() {
  const form = useRef<HTMLFormElement>(null);
  const { busy, problem, submit } = useSubmit(async (data) => {
    const text = (name: string) => String(data.get(name) ?? "");
    // The administrator made at first start has no password: the API takes any old one then, but not an empty one.
    await changePassword({
      oldPassword: text("oldPassword") || "-",
      newPassword1: text("newPassword1"),
      newPassword2: text("newPassword2"),
    });
    form.current?.reset();
    toast(t("passwordChanged"));
  });
  return (
    <section class="section" aria-labelledby="password-title">
      <h2 id="password-title">{t("password")}</h2>
      <p class="muted">{t("passwordIntro")}</p>
      <form ref={form} class="stack profile-form" onSubmit={submit}>
        <FormError problem={problem} />
        {/* For password managers: the account the new password belongs to. */}
        <input type="email" name="username" autoComplete="username" value={session.value!.user.email} hidden readOnly />
        <TextField
          label={t("oldPassword")}
          name="oldPassword"
          type="password"
          autoComplete="current-password"
          hint={t("oldPasswordHint")}
          error={problem?.field("oldPassword")}
        />
        <TextField
          label={t("newPassword1")}
          name="newPassword1"
          type="password"
          autoComplete="new-password"
          required
          minLength={8}
          hint={t("newPasswordHint")}
          error={problem?.field("newPassword1")}
        />
        <TextField
          label={t("newPassword2")}
          name="newPassword2"
          type="password"
          autoComplete="new-password"
          required
          minLength={8}
          error={problem?.field("newPassword2")}
        />
        <div>
          <Button type="submit" variant="primary" busy={busy}>
            {t("changePassword")}
          </Button>
        </div>
      </form>
    </section>
  );
}
