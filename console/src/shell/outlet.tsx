import type { ComponentType } from "preact";
import { useEffect, useState } from "preact/hooks";
import { PAGES } from "../pages";
import type { PageEntry, PageProps } from "../pages/types";
import { ErrorAlert, Loading } from "../components/alert";
import { PageHeader } from "../components/page-header";
import { Button } from "../components/button";
import { currentPath, matchPath, navigate } from "./router";
import { can, membership, missing, type Requirement } from "./session";
import { permissionLabel } from "./permission-names";
import { t } from "./strings";
import { t as common } from "../components/strings";
import { isImportFailure } from "./import-failure";

/** Page modules once loaded, so coming back to a page shows it at once. */
const loaded = new Map<PageEntry, ComponentType<PageProps>>();
const loading = new Map<PageEntry, Promise<ComponentType<PageProps>>>();

function loadPage(entry: PageEntry): Promise<ComponentType<PageProps>> {
  let pending = loading.get(entry);
  if (!pending) {
    pending = entry.load().then((m) => {
      loaded.set(entry, m.default);
      return m.default;
    });
    // A failed load may be retried. This branch only forgets it: the rejection still reaches the callers of `pending`.
    pending.catch(() => loading.delete(entry));
    loading.set(entry, pending);
  }
  return pending;
}

/** Starts loading the page of `path` (at start, while the session is asked for). */
export function preloadPage(path: string) {
  const entry = PAGES.find((p) => matchPath(p.path, path));
  // A chunk that could not be fetched is fetched again (and its failure shown) when the page opens.
  if (entry)
    loadPage(entry).catch((err) => {
      if (!isImportFailure(err)) throw err;
    });
}

/** The page of the current path: its chunk loaded on first visit; the start page for `/`. */
export function Outlet() {
  const path = currentPath.value;
  const organizationId = membership.value?.organization.id;
  useEffect(() => {
    if (path !== "/") return;
    const start = PAGES.find((p) => p.nav && can(p.requires));
    if (start) navigate(start.path.replace(/\/\*$/, ""), { replace: true });
  }, [path]);
  if (!organizationId) return <Message title={t("noOrganizationTitle")} text={t("noOrganizationText")} />;
  if (path === "/") return <Loading />;
  for (const entry of PAGES) {
    const params = matchPath(entry.path, path);
    if (!params) continue;
    const lacking = missing(entry.requires);
    if (lacking.length) return <Denied lacking={lacking} />;
    return <Lazy key={mountKey(entry, path, organizationId)} entry={entry} props={{ params, organizationId }} />;
  }
  return <Message title={t("notFoundTitle")} text={t("notFoundText")} />;
}

/**
 * What the page is mounted for: its organization, and the record its address names (the entry's `record`). Another of
 * either starts the page afresh, so no state of the last one (a form's draft, an open dialog, a read still on its way)
 * shows or is saved under the new address (docs/decisions.md, "Console: one record's page per address"). A query
 * (`?contact=`, a list's page) or a sub-path that is a view of the same record (a tab) keeps the page mounted.
 */
function mountKey(entry: PageEntry, path: string, organizationId: string): string {
  const record = entry.record ? matchPath(entry.record, path) : null;
  const ids = record ? Object.entries(record).filter(([name]) => name !== "rest") : [];
  return [entry.path, organizationId, ...ids.map(([, id]) => id)].join("@");
}

function Lazy({ entry, props }: { entry: PageEntry; props: PageProps }) {
  const [Page, setPage] = useState<ComponentType<PageProps> | undefined>(() => loaded.get(entry));
  const [error, setError] = useState<unknown>(null);
  const load = () => {
    setError(null);
    loadPage(entry).then(
      (page) => setPage(() => page),
      (err) => {
        // Only a chunk the network failed to bring is offered again; a module that throws is a bug.
        if (!isImportFailure(err)) throw err;
        setError(err);
      },
    );
  };
  useEffect(() => {
    if (!Page) load();
  }, [entry]);
  if (Page) return <Page {...props} />;
  if (error)
    return (
      <ErrorAlert error={t("loadFailed")}>
        <Button onClick={load}>{common("retry")}</Button>
      </ErrorAlert>
    );
  return <Loading />;
}

/** A page the member's groups do not allow: which permissions it needs that they lack, so they know what to ask for. */
function Denied({ lacking }: { lacking: Requirement[] }) {
  return (
    <>
      <PageHeader title={t("deniedTitle")} />
      <p>{t("deniedText")}</p>
      <ul>
        {lacking.map((r) => (
          <li key={r}>{permissionLabel(r)}</li>
        ))}
      </ul>
      <p>{t("deniedAsk")}</p>
    </>
  );
}

function Message({ title, text }: { title: string; text: string }) {
  return (
    <>
      <PageHeader title={title} />
      <p>{text}</p>
    </>
  );
}
