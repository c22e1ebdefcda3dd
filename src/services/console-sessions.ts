import { and, asc, count, desc, eq, exists, gt, isNull, or, sql } from "drizzle-orm";
import { selectedRow } from "../db/insert-select";
import { generateCookie } from "hono/cookie";
import type { Bindings, Db } from "../env";
import { apiKeys, consoleSessions, groupMembers, groupPermissions, members, organizations, users } from "../db/schema";
import { mapPage, type PageWindow, paginate } from "../db/paginate";
import { randomBase62, sha256Hex } from "../lib/crypto";
import { badRequest } from "../lib/errors";
import { uuidv7 } from "../lib/ids";
import { apiKeyRecordFor, passwordSignIn } from "./credentials";
import { forgetApiKey } from "./key-cache";
import { limitFailedSignIns } from "./sign-in-limits";
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
 * (400 `invalid_credentials` otherwise; 429 after too many failures: limitFailedSignIns): the session's cookie value
 * and the console's state. `client`: the client's address, where Cloudflare gives it.
 */
export async function signIn(
  env: Bindings,
  db: Db,
  body: { apiKey?: string; email?: string; password?: string },
  { userAgent, client }: { userAgent: string | null; client: string | null },
) {
  const now = Date.now();
  let signedIn: {
    user: UserRow;
    organizationId: string | null;
    key?: { id: string; expiresAt: number | null };
    /** The password hash the password was verified against. */
    passwordHash?: string | null;
  };
  if (body.apiKey !== undefined) {
    const apiKey = body.apiKey;
    const key = await limitFailedSignIns(env, { client }, () => apiKeyRecordFor(env, db, apiKey));
    if (!key || (key.expiresAt !== null && key.expiresAt <= now)) throw refused();
    signedIn = {
      user: key.user,
      organizationId: key.organizationId,
      key: { id: key.apiKeyId, expiresAt: key.expiresAt },
    };
  } else {
    const [email, password] = [body.email!, body.password!];
    const user = await limitFailedSignIns(env, { email, client }, () => passwordSignIn(env, db, email, password));
    if (!user) throw refused();
    signedIn = { user, organizationId: null, passwordHash: user.passwordHash };
  }
  const { user, organizationId, key, passwordHash } = signedIn;
  const method = key ? "api_key" : "password";
  const { token, values } = await newSession({ userId: user.id, organizationId, method, userAgent, key }, now);
  const [inserted] = await db.batch([
    insertSession(db, values, now, passwordHash ?? null).returning({ id: consoleSessions.id }),
    db
      .update(users)
      .set({ lastLoginAt: now })
      .where(
        and(
          eq(users.id, user.id),
          exists(db.select({ id: consoleSessions.id }).from(consoleSessions).where(eq(consoleSessions.id, values.id))),
        ),
      ),
  ]);
  if (!inserted.length) {
    // The key was revoked or expired since this isolate remembered it (docs/decisions.md, "Per-isolate caches"):
    // forgotten here at once, as its revocation would have been. Or the password was changed since it was verified.
    if (key) forgetApiKey(key.id);
    throw refused();
  }
  return { token, state: await sessionState(db, values, user) };
}

/**
 * Inserts a new session, in the statement itself only while what it was signed in with still holds. A key: while it
 * is live; the key read may be up to 2 s old, and a revocation committed in between would otherwise miss this session
 * (it revokes the key's sessions in its own batch) and leave it working for 12 hours. A password: while it is still
 * the one verified (`passwordHash`); a change committed during the check (PBKDF2 takes a while) ends the sessions
 * there are, and would otherwise miss this one, made with the old password.
 */
function insertSession(db: Db, values: SessionRow, now: number, passwordHash: string | null) {
  const row = selectedRow(consoleSessions, values);
  if (!values.apiKeyId) {
    const unchanged = passwordHash === null ? sql`0` : eq(users.passwordHash, passwordHash);
    return db.insert(consoleSessions).select(
      db
        .select(row)
        .from(users)
        .where(and(eq(users.id, values.userId), unchanged)),
    );
  }
  return db.insert(consoleSessions).select(
    db
      .select(row)
      .from(apiKeys)
      .where(
        and(
          eq(apiKeys.id, values.apiKeyId),
          isNull(apiKeys.revokedAt),
          or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, now)),
        ),
      ),
  );
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
