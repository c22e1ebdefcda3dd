import { SELF, createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { getDb } from "../src/db";
import { dataDb, dataDbs } from "../src/services/shards";
import { client } from "../src/db/prepared";
import { conversationDb, dataParts } from "../src/services/shards/parts";
import {
  conversations,
  groupMembers,
  groupPermissions,
  groups,
  organizations,
  organizationShards,
} from "../src/db/schema";
import { createAccount } from "../src/services/accounts";
import { PERMISSIONS, type Permission } from "../src/services/permissions";
import { eq } from "drizzle-orm";
import { uuidv7 } from "../src/lib/ids";
import worker from "../src/index";
import type { Bindings, Db } from "../src/env";
import { bodyOf, type Schemas } from "./support/api";
import { readAnswer } from "./support/answers";

export const db = () => getDb(env.DB);
/** An organization's data plane, where the service reads and writes its conversations (services/shards `dataDb`). */
export const data = (organizationId: string) => dataDb(env, organizationId);
/** Every part of an organization's data plane (services/shards/parts.ts): its shard, and any later part. */
export const parts = (organizationId: string) => dataParts(env, organizationId);
/** The part of an organization's data plane holding one of its conversations (for most organizations, `data`). */
export const conversationData = (organizationId: string, conversationId: string) =>
  conversationDb(env, organizationId, conversationId);
/** A conversation's row as D1 (its part of the organization's data plane) holds it now. */
export const conversationRow = async (organizationId: string, conversationId: string) => {
  const [row] = await (await conversationData(organizationId, conversationId))
    .select()
    .from(conversations)
    .where(eq(conversations.id, conversationId));
  return row;
};
/** What `read` answers in each part of an organization's data plane, as one list: for rows a test selects by other
 * than their conversation (a webhook's deliveries, an inbox's channel deliveries), each in its conversation's part. */
export const fromEveryPart = async <T>(organizationId: string, read: (part: Db) => Promise<T[]>) =>
  (await Promise.all((await parts(organizationId)).map(read))).flat();
/** The rows of `from` ("table WHERE ...", `?` bound to `binds`) in one D1 database. */
export async function countRows(d1: D1Database, from: string, ...binds: unknown[]) {
  return (await d1
    .prepare(`SELECT count(*) AS n FROM ${from}`)
    .bind(...binds)
    .first<{ n: number }>())!.n;
}
/** Rows of `table` (that `where` takes, `?` bound to `binds`) in every part of an organization's data plane. */
export async function countInParts(organizationId: string, table: string, where = "1=1", ...binds: unknown[]) {
  let n = 0;
  for (const part of await parts(organizationId))
    n += await countRows(client(part), `${table} WHERE ${where}`, ...binds);
  return n;
}
/** How many of a conversation's messages D1 holds (on their way to its object), in any data plane (`DB`, a shard). */
export async function messagesInD1(conversationId: string): Promise<number> {
  let n = 0;
  for (const plane of dataDbs(env))
    n += await countRows(client(plane), "messages WHERE conversation_id = ?", conversationId);
  return n;
}
export const PREFIXES = ["/api/v1", "/api"] as const;

let counter = 0;
export const unique = (label = "x") =>
  `${label}-${Date.now().toString(36)}-${(counter++).toString(36)}-${Math.random().toString(36).slice(2, 6)}`;

export interface Actor {
  userId: string;
  organizationId: string;
  key: string;
  email: string;
  /** Request as this actor; `path` is relative to the prefix (default /api/v1). */
  fetch(
    method: string,
    path: string,
    body?: unknown,
    init?: { prefix?: string; headers?: Record<string, string>; settings?: Settings },
  ): Promise<Response>;
}

/** Deployment settings (variables and secrets) that differ from the test defaults for one request. */
export type Settings = { [K in keyof Bindings]?: Bindings[K] | undefined };

/** Plans as an operator would configure them (src/services/plans.ts). */
export const CONFIGURED_PLANS: Settings = {
  PLANS: JSON.stringify({
    free: { planName: "Free", createChatbotLimit: 3, monthlyWords: 100_000, uploadBytes: 104_857_600 },
    pro: { planName: "Pro", createChatbotLimit: 50 },
    enterprise: { planName: "Enterprise", logoUploads: true },
  }),
  DEFAULT_PLAN: "free",
};

/** The test bindings with `settings` over them (an `undefined` setting is one the deployment lacks). */
export const bindingsWith = (settings: Settings = {}) => ({ ...env, ...settings }) as Bindings;

/** The worker's own `fetch` with `bindings` as its env, once its `waitUntil` work is done. */
export async function fetchWorker(request: Request, bindings: Bindings) {
  const ctx = createExecutionContext();
  // The Workers types give an incoming request its `cf` properties, which a test's Request has not.
  const res = await worker.fetch(request as Parameters<typeof worker.fetch>[0], bindings, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

/**
 * The worker itself, called with `settings` over the test bindings: the same code, storage and
 * objects that SELF.fetch uses, the way a deployment configured so would run.
 */
export const fetchWithSettings = (request: Request, settings: Settings) => fetchWorker(request, bindingsWith(settings));

export async function call(
  method: string,
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
  settings?: Settings,
) {
  const init: RequestInit & { headers: Record<string, string> } = { method, headers: { ...headers } };
  if (body instanceof FormData || typeof body === "string") init.body = body;
  else if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers["Content-Type"] = "application/json";
  }
  const request = new Request(`http://localhost${url}`, init);
  const res = await (settings ? fetchWithSettings(request, settings) : SELF.fetch(request));
  // Off unless a run asks (READ_ANSWERS, test/support/answers.ts): the answer against the OpenAPI document.
  if (env.TEST_READ_ANSWERS) await readAnswer(method, url, res);
  return res;
}

function actor(userId: string, organizationId: string, key: string, email: string): Actor {
  return {
    userId,
    organizationId,
    key,
    email,
    fetch: (method, path, body, init = {}) =>
      call(
        method,
        `${init.prefix ?? "/api/v1"}${path}`,
        body,
        { Authorization: `Api-Key ${key}`, ...init.headers },
        init.settings,
      ),
  };
}

/** A fresh organization with its owner and an API key, written straight through the service layer. */
export async function seedOwner(label = "owner"): Promise<Actor> {
  const email = `${unique(label)}@example.com`.toLowerCase();
  const account = await createAccount(db(), { email, name: label, passwordHash: null, company: unique("org") });
  return actor(account.userId, account.organizationId, account.key, email);
}

/** A person signed up through the public registration with `password` (`label` starts their e-mail): their e-mail
 * and the registration's answer. */
export async function registerUser(password: string, label = "user") {
  const email = `${unique(label)}@example.com`;
  const res = await call("POST", "/api/v1/auth/registration/", {
    email,
    password1: password,
    password2: password,
    name: "Ada",
    company: unique("Acme"),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return { email, registered: await bodyOf<"POST /auth/registration/">(res) };
}

/** A platform operator (staff) with an organization of their own. */
export async function seedStaff(): Promise<Actor> {
  const email = `${unique("staff")}@example.com`;
  const account = await createAccount(db(), {
    email,
    name: "staff",
    passwordHash: null,
    company: unique("org"),
    isStaff: true,
  });
  return actor(account.userId, account.organizationId, account.key, email);
}

/**
 * A second user who is a member of `owner`'s organization, in a group holding `permissions`
 * (none: a plain member). Their own key acts in that organization.
 */
export async function seedMember(
  owner: Actor,
  permissions: Permission[] = [],
): Promise<Actor & { memberId: string; groupId: string | null }> {
  const email = `${unique("member")}@example.com`;
  const other = await createAccount(db(), { email, name: "member", passwordHash: null, company: unique("own-org") });
  const res = await owner.fetch("POST", `/organizations/${owner.organizationId}/members/`, { email });
  expect(res.status, await res.clone().text()).toBe(201);
  const member = await bodyOf<"POST /organizations/{organizationPk}/members/">(res);
  let groupId: string | null = null;
  if (permissions.length) {
    groupId = uuidv7();
    const ids = permissions.map((codename) => PERMISSIONS.find((p) => p.codename === codename)!.id);
    await db().batch([
      db()
        .insert(groups)
        .values({ id: groupId, organizationId: owner.organizationId, name: unique("group") }),
      db()
        .insert(groupPermissions)
        .values(ids.map((permissionId) => ({ groupId: groupId!, permissionId }))),
      db().insert(groupMembers).values({ groupId, memberId: member.id }),
    ]);
  }
  return {
    ...actor(other.userId, owner.organizationId, other.key, email),
    memberId: member.id,
    groupId,
    fetch: (m, p, b, init = {}) =>
      call(
        m,
        `${init.prefix ?? "/api/v1"}${p}`,
        b,
        { Authorization: `Api-Key ${other.key}`, "X-Organization-Id": owner.organizationId, ...init.headers },
        init.settings,
      ),
  };
}

/**
 * Makes a new organization one from before the shards (its data plane in `DB`), for what only those do.
 * `placed: false` also drops its directory row: never placed yet.
 */
export async function fromBeforeTheShards(organizationId: string, { placed = true } = {}) {
  const row = eq(organizationShards.organizationId, organizationId);
  if (placed) await db().update(organizationShards).set({ dataPlane: "db" }).where(row);
  else await db().delete(organizationShards).where(row);
}

export async function setPlan(organizationId: string, planId: "free" | "trial" | "pro" | "enterprise") {
  await db().update(organizations).set({ planId }).where(eq(organizations.id, organizationId));
}

/** Asserts the contract's error body: `{detail, code}` plus X-Request-Id. */
export async function expectError(res: Response, status: number, code?: string) {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  const body: Schemas["Error"] = JSON.parse(text);
  expect(typeof body.detail).toBe("string");
  if (code) expect(body.code).toBe(code);
  expect(res.headers.get("X-Request-Id")).toBeTruthy();
  return body;
}

export const NO_SUCH_ID = "01900000-0000-7000-8000-000000000000";

/** Polls `read` every `everyMs` until `done` holds or `ms` pass; returns the last value (the assertions after it say
 * what was wrong). */
export async function waitFor<T>(
  read: () => Promise<T>,
  done: (v: T) => boolean,
  ms = 10_000,
  everyMs = 100,
): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
