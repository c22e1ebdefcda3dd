import { useState } from "preact/hooks";
import { Button } from "../components/button";
import { LanguagePicker } from "../components/language-picker";
import { chooseOrganization, membership, session, signOut } from "./session";
import { setTheme, theme, type Theme } from "./theme";
import { BASE, currentPath, followLink } from "./router";
import { t } from "./strings";
import { AvailabilitySwitch } from "./availability";

/** The banner: product, organization switcher, theme, language, who is signed in and sign-out. */
export function Header({ menuOpen, onMenu }: { menuOpen: boolean; onMenu: () => void }) {
  const state = session.value!;
  const current = membership.value;
  const [leaving, setLeaving] = useState(false);
  const leave = async () => {
    setLeaving(true);
    try {
      await signOut();
    } finally {
      setLeaving(false);
    }
  };
  return (
    <header class="banner">
      <button
        type="button"
        class="btn quiet menu-button"
        aria-expanded={menuOpen}
        aria-controls="main-nav"
        onClick={onMenu}
      >
        {t("menu")}
      </button>
      <a class="brand" href={`${BASE}/`} onClick={followLink}>
        {t("product")}
      </a>
      <div class="banner-tools">
        {state.memberships.length > 1 ? (
          <label class="compact">
            <span>{t("organization")}</span>
            <select value={current?.organization.id} onChange={(e) => chooseOrganization(e.currentTarget.value)}>
              {state.memberships.map((m) => (
                <option key={m.organization.id} value={m.organization.id}>
                  {m.organization.name}
                </option>
              ))}
            </select>
          </label>
        ) : (
          current && <span class="organization-name">{current.organization.name}</span>
        )}
        <AvailabilitySwitch />
        <label class="compact">
          <span>{t("theme")}</span>
          <select value={theme.value} onChange={(e) => setTheme(e.currentTarget.value as Theme)}>
            <option value="system">{t("themeSystem")}</option>
            <option value="light">{t("themeLight")}</option>
            <option value="dark">{t("themeDark")}</option>
          </select>
        </label>
        <LanguagePicker label={t("language")} />
        <a
          class="who"
          href={`${BASE}/profile`}
          onClick={followLink}
          title={state.user.email}
          aria-label={`${t("signedInAs", { name: state.user.name })}: ${t("profile")}`}
          aria-current={currentPath.value === "/profile" ? "page" : undefined}
        >
          {t("signedInAs", { name: state.user.name })}
        </a>
        <Button variant="quiet" busy={leaving} onClick={leave}>
          {leaving ? t("signingOut") : t("signOut")}
        </Button>
      </div>
    </header>
  );
}
