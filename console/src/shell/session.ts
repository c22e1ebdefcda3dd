// Who is signed in and what they may do: the console session (cookie) as GET
// /auth/sessions/current/ describes it, and the organization the user is working in. The API
// decides every request; this only hides what would be refused.
import { computed, signal } from "@preact/signals";
import { actInOrganization, api, isExpected, unwrap, whenSignedOut, type Schemas } from "../api/client";
import { forgetDrafts } from "../pages/conversations/drafts";

export type SessionState = Schemas["ConsoleSessionState"];
export type Membership = SessionState["memberships"][number];
/** A permission codename of the catalogue (`chatbot.manage`), or `owner` for what only owners may do. */
export type Requirement = string | "owner";
/** One requirement, or a list of them that must all hold (a page that lists what another permission guards). */
export type Requirements = Requirement | readonly Requirement[] | null | undefined;

/** undefined while loading; null when signed out. */
export const session = signal<SessionState | null | undefined>(undefined);

const ORGANIZATION_KEY = "console.organization";
export const organizationId = signal<string | null>(localStorage.getItem(ORGANIZATION_KEY));

/** The membership the console acts in: the chosen organization, else the oldest. */
export const membership = computed<Membership | null>(() => {
  const all = session.value?.memberships ?? [];
  return all.find((m) => m.organization.id === organizationId.value) ?? all[0] ?? null;
});

export function chooseOrganization(id: string) {
  localStorage.setItem(ORGANIZATION_KEY, id);
  organizationId.value = id;
  actInOrganization(id);
}

export function signedIn(state: SessionState) {
  session.value = state;
  actInOrganization(membership.value?.organization.id ?? null);
}

/** What of `requirements` the current member lacks, in their order (none: they may). */
export function missing(requirements: Requirements): Requirement[] {
  const all = !requirements ? [] : typeof requirements === "string" ? [requirements] : requirements;
  const m = membership.value;
  if (m?.isOwner) return [];
  return all.filter((r) => !m || r === "owner" || !m.permissions.includes(r));
}

/** Whether the current member may do what `requirements` name, all of them (no requirement: yes). */
export function can(requirements: Requirements): boolean {
  return missing(requirements).length === 0;
}

export async function loadSession() {
  try {
    signedIn(await unwrap(api.GET("/api/v1/auth/sessions/current/")));
  } catch (err) {
    // Refused (no session) or unreachable: the sign-in page, which says what happens next.
    if (!isExpected(err)) throw err;
    session.value = null;
  }
}

export async function signOut() {
  const user = session.value?.user.id;
  try {
    await unwrap(api.DELETE("/api/v1/auth/sessions/current/"));
  } finally {
    // Signed out on purpose, the member's unsent replies leave this browser (a session that lapses keeps them).
    if (user) forgetDrafts(user);
    session.value = null;
  }
}

whenSignedOut(() => {
  if (session.value) session.value = null;
});
