import { useRef, useState } from "preact/hooks";
import { NewPasswordFields, TextField, PageForm, PageHeader, toast } from "../../components";
import { session } from "../../shell/session";
import { KeysSection } from "../models/keys-section";
import { SessionsSection } from "../models/sessions-section";
import { changePassword, updateMe } from "./api";
import { t } from "./strings";

/** The signed-in user's own page: their name and e-mail, their password, their API keys and console sessions. */
export default function ProfilePage() {
  // A password change ends the user's other sessions: the list of them is loaded again.
  const [passwordChanges, setPasswordChanges] = useState(0);
  return (
    <>
      <PageHeader title={t("title")} />
      <DetailsSection />
      <PasswordSection changed={() => setPasswordChanges((n) => n + 1)} />
      <KeysSection />
      <SessionsSection version={passwordChanges} />
    </>
  );
}

function DetailsSection() {
  const user = session.value!.user;
  const save = async (form: FormData) => {
    const saved = await updateMe({
      name: String(form.get("name") ?? "").trim(),
      email: String(form.get("email") ?? "").trim(),
    });
    // The banner's "Signed in as" reads the session: it follows at once.
    if (session.value) session.value = { ...session.value, user: saved };
    toast(t("detailsSaved"));
  };
  return (
    <section class="section" aria-labelledby="details-title">
      <h2 id="details-title">{t("details")}</h2>
      <p class="muted">{t("detailsIntro")}</p>
      <PageForm class="profile-form" submit={t("save")} save={save}>
        <TextField
          label={t("name")}
          name="name"
          autoComplete="name"
          required
          maxLength={150}
          defaultValue={user.name}
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
        />
      </PageForm>
    </section>
  );
}

function PasswordSection({ changed }: { changed: () => void }) {
  const form = useRef<HTMLFormElement>(null);
  const save = async (data: FormData) => {
    const text = (name: string) => String(data.get(name) ?? "");
    // The administrator made at first start has no password: the API takes any old one then, but not an empty one.
    await changePassword({
      oldPassword: text("oldPassword") || "-",
      newPassword1: text("newPassword1"),
      newPassword2: text("newPassword2"),
    });
    form.current?.reset();
    toast(t("passwordChanged"));
    changed();
  };
  return (
    <section class="section" aria-labelledby="password-title">
      <h2 id="password-title">{t("password")}</h2>
      <p class="muted">{t("passwordIntro")}</p>
      <PageForm formRef={form} class="profile-form" submit={t("changePassword")} save={save}>
        {/* For password managers: the account the new password belongs to. */}
        <input type="email" name="username" autoComplete="username" value={session.value!.user.email} hidden readOnly />
        <TextField
          label={t("oldPassword")}
          name="oldPassword"
          type="password"
          autoComplete="current-password"
          hint={t("oldPasswordHint")}
        />
        <NewPasswordFields
          names={["newPassword1", "newPassword2"]}
          labels={[t("newPassword1"), t("newPassword2")]}
          hint={t("newPasswordHint")}
        />
      </PageForm>
    </section>
  );
}
