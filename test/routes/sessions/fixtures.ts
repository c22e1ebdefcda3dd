import { expect } from "vitest";
import { eq } from "drizzle-orm";
import { consoleSessions, users } from "../../../src/db/schema";
import { hashPassword } from "../../../src/lib/crypto";
import { call, db, type Actor } from "../../harness";

export const PASSWORD = "correct horse battery";
export const ORIGIN = "http://localhost";

/** Gives the actor's user a password, so they can sign in with it. */
export async function withPassword<T extends Actor>(actor: T): Promise<T> {
  await db()
    .update(users)
    .set({ passwordHash: await hashPassword(PASSWORD) })
    .where(eq(users.id, actor.userId));
  return actor;
}

/** The `console_session` value of a response's Set-Cookie ("" when it clears the cookie). */
export function sessionCookieOf(res: Response): { value: string; attributes: string } | null {
  const header = res.headers.getSetCookie().find((c) => c.startsWith("console_session="));
  if (!header) return null;
  const [pair, ...attributes] = header.split(";");
  return { value: pair.slice("console_session=".length), attributes: attributes.join(";").trim() };
}

export interface Browser {
  cookie: string;
  sessionId: string;
  /** A request as the console makes it: the cookie, and the console's own Origin on writes. */
  fetch(
    method: string,
    path: string,
    body?: unknown,
    init?: { prefix?: string; headers?: Record<string, string> },
  ): Promise<Response>;
}

/** Signs in through the API (as the console does) and returns a cookie jar of one cookie. */
export async function signIn(body: Record<string, unknown>, prefix = "/api/v1"): Promise<Browser> {
  const res = await call("POST", `${prefix}/auth/sessions/`, body, { Origin: ORIGIN });
  expect(res.status, await res.clone().text()).toBe(201);
  const cookie = sessionCookieOf(res)!.value;
  const { session } = await res.json<{ session: { id: string } }>();
  return browserWith(cookie, session.id);
}

export function browserWith(cookie: string, sessionId = ""): Browser {
  return {
    cookie,
    sessionId,
    fetch: (method, path, body, init = {}) =>
      call(method, `${init.prefix ?? "/api/v1"}${path}`, body, {
        Cookie: `console_session=${cookie}`,
        ...(method === "GET" || method === "HEAD" ? {} : { Origin: ORIGIN }),
        ...init.headers,
      }),
  };
}

export const sessionsOf = (userId: string) =>
  db().select().from(consoleSessions).where(eq(consoleSessions.userId, userId));
