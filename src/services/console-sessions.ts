import { and, asc, count, desc, eq, gt, isNull, or } from "drizzle-orm";
import { generateCookie } from "hono/cookie";
import type { Bindings, Db } from "../env";
import { consoleSessions, groupMembers, groupPermissions, members, organizations, users } from "../db/schema";
import { mapPage, type PageWindow, paginate } from "../db/paginate";
import { randomBase62, sha256Hex } from "../lib/crypto";
import { badRequest } from "../lib/errors";
import { uuidv7 } from "../lib/ids";
import { apiKeyRecordFor, passwordSignIn } from "./credentials";
import { consoleSessionRecord } from "./records/console-sessions";
import { userRecord } from "./records/users";
import { grants, permissionCodename, PERMISSIONS, type Permission } from "./permissions";

/** Console sessions lapse this long after their last use (CONTRACT section 16). */
export const SESSION_IDLE_MS = 12 * 3_600_000;
/** A session's last use is written at most this often (and its cookie renewed with it). */
export const SESSION_TOUCH_MS = 60_000;
export const SESSION_COOKIE = "console_session";

export type SessionRow = typeof consoleSessions.$inferSelect;
export type SignInMethod = SessionRow["method"];

type Lapsing = Pick<SessionRow, "lastUsedAt" | "keyExpiresAt">;
/** 12 hours after its last use, or when the API key it was signed in with expires, whichever is first. */
export const sessionExpiresAt = (session: Lapsing) =>
  Math.min(session.lastUsedAt + SESSION_IDLE_MS, session.keyExpiresAt ?? Number.POSITIVE_INFINITY);
export const sessionExpired = (session: Lapsing, now = Date.now()) => now >= sessionExpiresAt(session);

/** A new session of `userId`: the cookie value (for the browser only) and the row to insert. */
export async function newSession(
  input: {
    userId: string;
    organizationId: string | null;
    method: SignInMethod;
    userAgent: string | null;
    key?: { id: string; expiresAt: number | null };
  },
  now = Date.now(),
) {
  const token = `cs_${randomBase62(43)}`;
  const { key, ...rest } = input;
  const values: SessionRow = {
    id: uuidv7(),
    ...rest,
    apiKeyId: key?.id ?? null,
    keyExpiresAt: key?.expiresAt ?? null,
    userAgent: input.userAgent?.slice(0, 300) ?? null,
    tokenHash: await sha256Hex(token),
    lastUsedAt: now,
    revokedAt: null,
    createdAt: now,
  };
  return { token, values };
}

/** Revokes one of the user's live sessions; false when there is none with that id. */
export async function revokeSession(db: Db, userId: string, sessionId: string, now = Date.now()): Promise<boolean> {
  const revoked = await db
    .update(consoleSessions)
    .set({ revokedAt: now })
    .where(
      and(eq(consoleSessions.id, sessionId), eq(consoleSessions.userId, userId), isNull(consoleSessions.revokedAt)),
    )
    .returning({ id: consoleSessions.id });
  return revoked.length > 0;
}

/** The user's sessions that still work (neither revoked nor lapsed), most recently used first. */
export const liveSessionsOf = (userId: string, now = Date.now()) =>
  and(
    eq(consoleSessions.userId, userId),
    isNull(consoleSessions.revokedAt),
    gt(consoleSessions.lastUsedAt, now - SESSION_IDLE_MS),
    or(isNull(consoleSessions.keyExpiresAt), gt(consoleSessions.keyExpiresAt, now)),
  );
export const liveSessionsOrder = [desc(consoleSessions.lastUsedAt), desc(consoleSessions.id)];

/** Whether the request came over a loopback name, where browsers refuse Secure cookies over http. */
function isLoopback(url: URL) {
  return (
    url.hostname === "localhost" ||
    url.hostname.endsWith(".localhost") ||
    url.hostname === "[::1]" ||
    /^127\./.test(url.hostname)
  );
}

/**
 * The session cookie: HttpOnly, SameSite=Strict, Secure outside localhost, sent only to the API.
 * Its Max-Age follows the idle expiry and is renewed as the session is used.
 */
export function sessionCookie(requestUrl: string, token: string) {
  const url = new URL(requestUrl);
  return generateCookie(SESSION_COOKIE, token, {
    path: "/api",
    httpOnly: true,
    sameSite: "Strict",
    secure: !isLoopback(url),
    maxAge: SESSION_IDLE_MS / 1000,
  });
}
export function clearedSessionCookie(requestUrl: string) {
  const url = new URL(requestUrl);
  return generateCookie(SESSION_COOKIE, "", {
    path: "/api",
    httpOnly: true,
    sameSite: "Strict",
    secure: !isLoopback(url),
    maxAge: 0,
  });
}

export interface Membership {
  organization: { id: string; name: string };
  isOwner: boolean;
  /** Codenames the user holds there, implied ones included (`x.manage` gives `x.view`); owners hold all. */
  permissions: Permission[];
}

/** Every organization the user is a member of, oldest membership first, with what they may do there. */
export async function membershipsOf(db: Db, userId: string): Promise<Membership[]> {
  const rows = await db
    .select({
      id: organizations.id,
      name: organizations.name,
      isOwner: members.isOwner,
      permissionId: groupPermissions.permissionId,
    })
    .from(members)
    .innerJoin(organizations, eq(organizations.id, members.organizationId))
    .leftJoin(groupMembers, eq(groupMembers.memberId, members.id))
    .leftJoin(groupPermissions, eq(groupPermissions.groupId, groupMembers.groupId))
    .where(eq(members.userId, userId))
    .orderBy(asc(members.createdAt), asc(members.id));
  const byOrganization = new Map<
    string,
    { organization: { id: string; name: string }; isOwner: boolean; held: Set<string> }
  >();
  for (const r of rows) {
    const entry = byOrganization.get(r.id) ?? {
      organization: { id: r.id, name: r.name },
      isOwner: r.isOwner,
      held: new Set<string>(),
    };
    const codename = r.permissionId ? permissionCodename(r.permissionId) : undefined;
    if (codename) entry.held.add(codename);
    byOrganization.set(r.id, entry);
  }
  return [...byOrganization.values()].map(({ organization, isOwner, held }) => ({
    organization,
    isOwner,
    permissions: PERMISSIONS.map((p) => p.codename).filter((p) => isOwner || grants(held, p)),
  }));
}

type UserRow = typeof users.$inferSelect;

/** What the console needs to start: the session, its user, and what the user may do in each organization. */
export async function sessionState(db: Db, session: SessionRow, user: UserRow) {
  return {
    session: consoleSessionRecord(session, session.id),
    user: userRecord(user),
    memberships: await membershipsOf(db, user.id),
  };
}

const refused = () => badRequest("Unable to sign in with provided credentials.", undefined, "invalid_credentials");

/**
 * Signs in with an API key (the session is bound to the key's organization) or an e-mail and password
 * (400 `invalid_credentials` otherwise): the session's cookie value and the console's state.
 */
export async function signIn(
  env: Bindings,
  db: Db,
  body: { apiKey?: string; email?: string; password?: string },
  userAgent: string | null,
) {
  const now = Date.now();
  let signedIn: { user: UserRow; organizationId: string | null; key?: { id: string; expiresAt: number | null } };
  if (body.apiKey !== undefined) {
    const key = await apiKeyRecordFor(env, db, body.apiKey);
    if (!key || (key.expiresAt !== null && key.expiresAt <= now)) throw refused();
    signedIn = {
      user: key.user,
      organizationId: key.organizationId,
      key: { id: key.apiKeyId, expiresAt: key.expiresAt },
    };
  } else {
    const user = await passwordSignIn(env, db, body.email!, body.password!);
    if (!user) throw refused();
    signedIn = { user, organizationId: null };
  }
  const { user, organizationId, key } = signedIn;
  const method = key ? "api_key" : "password";
  const { token, values } = await newSession({ userId: user.id, organizationId, method, userAgent, key }, now);
  await db.batch([
    db.insert(consoleSessions).values(values),
    db.update(users).set({ lastLoginAt: now }).where(eq(users.id, user.id)),
  ]);
  return { token, state: await sessionState(db, values, user) };
}

/** A page of the user's live sessions, most recently used first; `currentId` marks the request's own. */
export async function listSessions(db: Db, userId: string, currentId: string | null, window: PageWindow) {
  const live = liveSessionsOf(userId);
  const page = await paginate(
    window,
    db.select({ n: count() }).from(consoleSessions).where(live),
    ({ limit, offset }) =>
      db
        .select()
        .from(consoleSessions)
        .where(live)
        .orderBy(...liveSessionsOrder)
        .limit(limit)
        .offset(offset),
  );
  return mapPage(page, (row) => consoleSessionRecord(row, currentId));
}
