import type { ComponentType } from "preact";
import { useEffect, useState } from "preact/hooks";
import { Announcer } from "../components/announcer";
import { Toasts } from "../components/toast";
import { Loading } from "../components/alert";
import { Header } from "./header";
import { Nav } from "./nav";
import { Outlet } from "./outlet";
import { membership, session } from "./session";
import { watchConversations } from "./notifications";
import { currentPath } from "./router";
import { t } from "./strings";

/** The console: the sign-in page until there is a session, then the shell around the current page. */
export function App() {
  const state = session.value;
  return (
    <>
      {state === undefined ? <Loading /> : state === null ? <SignIn /> : <Shell />}
      <Toasts />
      <Announcer />
    </>
  );
}

function SignIn() {
  const [Page, setPage] = useState<ComponentType | null>(null);
  useEffect(() => {
    import("../pages/sign-in/page").then((m) => setPage(() => m.default));
  }, []);
  return Page ? <Page /> : <Loading />;
}

function Shell() {
  const [menuOpen, setMenuOpen] = useState(false);
  const organizationId = membership.value?.organization.id;
  // Unread counts and notifications on every page, from the tab's one live stream.
  useEffect(() => (organizationId ? watchConversations(organizationId) : undefined), [organizationId, session.value]);
  // The phone menu closes when the page changes.
  useEffect(() => setMenuOpen(false), [currentPath.value]);
  // Escape closes it too, as a disclosure's menu closes, the focus back on its button (it stayed open, expanded).
  useEffect(() => {
    if (!menuOpen) return;
    const close = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || document.querySelector("dialog[open]")) return;
      setMenuOpen(false);
      document.querySelector<HTMLElement>(".menu-button")?.focus();
    };
    document.addEventListener("keydown", close);
    return () => document.removeEventListener("keydown", close);
  }, [menuOpen]);
  return (
    <div class="shell">
      <a class="skip-link" href="#main">
        {t("skip")}
      </a>
      <Header menuOpen={menuOpen} onMenu={() => setMenuOpen(!menuOpen)} />
      <div class="body">
        <Nav open={menuOpen} onNavigate={() => setMenuOpen(false)} />
        <main id="main" tabIndex={-1}>
          <Outlet />
        </main>
      </div>
    </div>
  );
}
