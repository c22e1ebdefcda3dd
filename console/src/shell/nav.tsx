import { locale } from "../i18n";
import { PAGES } from "../pages";
import { BASE, currentPath, followLink, matchPath } from "./router";
import { can } from "./session";
import { t } from "./strings";

/** The pages of the registry this member may see, the current one marked for assistive technology. */
export function Nav({ open, onNavigate }: { open: boolean; onNavigate: () => void }) {
  const path = currentPath.value;
  const entries = PAGES.filter((p) => p.nav && can(p.requires));
  return (
    <nav id="main-nav" class={`side-nav${open ? " open" : ""}`} aria-label={t("mainNav")}>
      <ul>
        {entries.map((p) => {
          const href = p.path.replace(/\/\*$/, "");
          const here = matchPath(p.path, path) !== null;
          return (
            <li key={p.path}>
              <a
                href={BASE + href}
                aria-current={here ? "page" : undefined}
                onClick={(e) => {
                  followLink(e);
                  onNavigate();
                }}
              >
                {p.nav![locale.value]}
              </a>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
