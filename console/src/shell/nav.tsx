import { locale } from "../i18n";
import { PAGES } from "../pages";
import { BASE, currentPath, followLink, matchPath } from "./router";
import { can } from "./session";
import { t } from "./strings";
import { totalUnread } from "./notifications";
import { t as notifyText } from "./notify-strings";

/** The total of unread conversations beside the conversations' entry: the number shown, the words read. */
function UnreadCount() {
  const n = totalUnread.value;
  if (!n) return null;
  return (
    <>
      <span class="badge nav-unread" aria-hidden="true" data-unread={n}>
        {n}
      </span>
      <span class="sr-only">{`, ${notifyText("unreadConversations", { n })}`}</span>
    </>
  );
}

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
                {p.path === "/conversations/*" && <UnreadCount />}
              </a>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
