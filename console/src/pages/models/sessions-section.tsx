import {
  Button,
  useRemoval,
  ErrorAlert,
  Loading,
  Pager,
  usePagedResource,
  DataTable,
  type Column,
} from "../../components";
import { formatTime } from "../../i18n";
import { signOut } from "../../shell/session";
import { listSessions, PAGE_SIZE, revokeSession, type ConsoleSession } from "./api";
import { t } from "./strings";

/** "Chrome 156 on Linux" from a user agent; the whole string is kept as the cell's title. */
function browserOf(userAgent: string | null): string {
  if (!userAgent) return t("unknownBrowser");
  const browser = /(Edg|Firefox|Chrome|Safari)\/(\d+)/.exec(userAgent);
  const system = /(Windows|Mac OS X|Android|iPhone|Linux)/.exec(userAgent);
  const name = browser ? `${browser[1] === "Edg" ? "Edge" : browser[1]} ${browser[2]}` : userAgent.slice(0, 40);
  return system ? `${name} · ${system[1].replace("Mac OS X", "macOS")}` : name;
}

/**
 * The user's console sessions, beside their keys; revoking the current one signs out. Loaded again when `version`
 * changes (a password change ends the other sessions).
 */
export function SessionsSection({ version }: { version?: number }) {
  const { page, setPage, list: sessions } = usePagedResource(listSessions, [version]);
  const revoking = useRemoval<ConsoleSession>({
    title: t("revokeSessionTitle"),
    message: () => t("revokeSessionMessage"),
    action: t("revoke"),
    run: (s) => revokeSession(s.id),
    done: () => t("sessionRevoked"),
    after: sessions.reload,
  });
  const columns: Column<ConsoleSession>[] = [
    {
      label: t("browser"),
      rowHeader: true,
      cell: (s) => (
        <span title={s.userAgent ?? undefined}>
          {browserOf(s.userAgent)} {s.current && <span class="badge">{t("thisSession")}</span>}
        </span>
      ),
    },
    { label: t("signedInWith"), cell: (s) => (s.method === "password" ? t("password") : t("apiKeyMethod")) },
    { label: t("signedInAt"), cell: (s) => formatTime(s.createdAt) },
    { label: t("lastUsed"), cell: (s) => formatTime(s.lastUsedAt) },
    { label: t("expires"), cell: (s) => formatTime(s.expiresAt) },
    {
      label: t("actions"),
      hiddenLabel: true,
      cell: (s) => (
        <div class="row-actions">
          {s.current ? (
            <Button onClick={() => signOut()}>{t("signOutHere")}</Button>
          ) : (
            <Button
              variant="danger"
              aria-label={t("revokeNamed", { name: browserOf(s.userAgent) })}
              onClick={() => revoking.ask(s)}
            >
              {t("revoke")}
            </Button>
          )}
        </div>
      ),
    },
  ];
  return (
    <section aria-labelledby="sessions-title" class="section">
      <h2 id="sessions-title">{t("sessions")}</h2>
      <p class="muted">{t("sessionsIntro")}</p>
      <ErrorAlert error={sessions.error} />
      {sessions.data === undefined ? (
        sessions.loading && <Loading />
      ) : (
        <DataTable labelledBy="sessions-title" rows={sessions.data.results} rowKey={(s) => s.id} columns={columns} />
      )}
      {sessions.data && <Pager page={page} count={sessions.data.count} pageSize={PAGE_SIZE} onPage={setPage} />}
      {revoking.dialog}
    </section>
  );
}
