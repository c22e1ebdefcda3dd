// What the public account endpoints do (`/auth/registration/`, `/auth/login/`, `/auth/password/change/`).
// Apart from ./accounts, which the authentication of every request imports, so that it stays small.
import { and, eq, isNull, ne } from "drizzle-orm";
import type { Bindings, Db } from "../env";
import { apiKeys, consoleSessions, users } from "../db/schema";
import { badRequest, conflict, isUniqueViolation } from "../lib/errors";
import { hashPassword, verifyPassword } from "../lib/crypto";
import { bootstrapPassword, usableSecret } from "../lib/placeholders";
import { apiKeyValues, bootstrapOwner, createAccount } from "./accounts";
import { forgetUser } from "./key-cache";
import { limitFailedSignIns, type SignInAttempt } from "./sign-in-limits";
import { getOrganizationRecord } from "./organizations";
import { dataParts } from "./shards/parts";
import type { PlanSettings } from "./plans";
import { userRecord } from "./records/users";

/** A user with their own organization (named `company`) and a first API key; 409 when the e-mail is taken. */
export async function register(
  env: Bindings,
  db: Db,
  input: { email: string; name: string; company: string; password: string },
  plans: PlanSettings,
) {
  // With no user yet, the first administrator comes first (the contract's "first request" with BOOTSTRAP_API_KEY
  // set creates them): the key and password `npm run dev` printed keep working when someone signs up before using them.
  const bootstrapKey = usableSecret("BOOTSTRAP_API_KEY", env.BOOTSTRAP_API_KEY);
  if (bootstrapKey)
    await bootstrapOwner(db, bootstrapKey, env.BOOTSTRAP_EMAIL, plans.defaultPlan.id, bootstrapPassword(env));
  let account: Awaited<ReturnType<typeof createAccount>>;
  try {
    account = await createAccount(db, {
      email: input.email,
      name: input.name,
      company: input.company,
      passwordHash: await hashPassword(input.password),
      planId: plans.defaultPlan.id,
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict("A user is already registered with this e-mail address.");
    throw err;
  }
  const [[user], organization] = await Promise.all([
    db.select().from(users).where(eq(users.id, account.userId)),
    getOrganizationRecord(db, await dataParts(env, account.organizationId), account.organizationId, plans),
  ]);
  return { user: userRecord(user), organization: organization!, apiKey: account.key };
}

/**
 * A new API key for the user with this e-mail and password (400 otherwise, saying no more; 429 after too many
 * failures, counted with the console's sign-ins: limitFailedSignIns).
 */
export async function logIn(env: Bindings, db: Db, who: SignInAttempt & { email: string }, password: string) {
  const user = await limitFailedSignIns(env, who, async () => {
    const [found] = await db.select().from(users).where(eq(users.email, who.email.toLowerCase()));
    return found?.passwordHash && (await verifyPassword(password, found.passwordHash)) ? found : undefined;
  });
  if (!user) throw badRequest("Unable to log in with provided credentials.", undefined, "invalid_credentials");
  const { key, values } = await apiKeyValues(user.id, null, "Login");
  await db.batch([
    db.insert(apiKeys).values(values),
    db.update(users).set({ lastLoginAt: Date.now() }).where(eq(users.id, user.id)),
  ]);
  return key;
}

/**
 * Replaces the user's password once the old one is given (400 on a wrong one), and ends their console sessions but
 * `keepSessionId` (the one that changed it): a password is changed when it may be known to someone else, whose
 * session must not outlive it. API keys stay: they are credentials of their own, revoked one by one.
 */
export async function changePassword(
  db: Db,
  userId: string,
  oldPassword: string,
  newPassword: string,
  keepSessionId: string | null,
) {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  // A user created by bootstrap has no password yet and may set one without an old one.
  if (user.passwordHash && !(await verifyPassword(oldPassword, user.passwordHash))) {
    throw badRequest("Invalid request. oldPassword: Your old password was entered incorrectly.", {
      oldPassword: ["Your old password was entered incorrectly."],
    });
  }
  const now = Date.now();
  await db.batch([
    db
      .update(users)
      .set({ passwordHash: await hashPassword(newPassword) })
      .where(eq(users.id, user.id)),
    db
      .update(consoleSessions)
      .set({ revokedAt: now })
      .where(
        and(
          eq(consoleSessions.userId, user.id),
          isNull(consoleSessions.revokedAt),
          keepSessionId ? ne(consoleSessions.id, keepSessionId) : undefined,
        ),
      ),
  ]);
  forgetUser(user.id);
}
