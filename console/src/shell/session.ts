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

/** Whether the current member may do what `requirement` names (no requirement: yes). */
export function can(requirement: Requirement | null | undefined): boolean {
  if (!requirement) return true;
  const m = membership.value;
  if (!m) return false;
  return m.isOwner || (requirement !== "owner" && m.permissions.includes(requirement));
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
