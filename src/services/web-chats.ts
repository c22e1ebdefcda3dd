import type { z } from "@hono/zod-openapi";
import { and, eq, notExists, type SQL, sql } from "drizzle-orm";
import type { Bindings, Db } from "../env";
import { inboxes, webChats, type WebChatSettings } from "../db/schema";
import { badRequest, conflict, fieldError, isUniqueViolation, notFound } from "../lib/errors";
import { encryptSecret, randomBase62 } from "../lib/crypto";
import { uuidv7 } from "../lib/ids";
import {
  defaultWebChatSettings,
  domainServedElsewhere,
  findInbox,
  getWebChat,
  requireDomainFree,
  type WebChatRow,
} from "./inboxes";
import { type WebChatCreate, type WebChatPatch, webChatRecord, type WebChatRecord } from "./records/web-chats";
import { publishWebChatImages, removePublishedFiles, replacedWebChatImages } from "./uploads/web-chat-images";
import { challengeName, challengeValue, domainVerified, txtResolver } from "./widget/domains";

/** Theme keys as a write gives them: `null` removes a key. */
type ThemeChanges = Record<string, string | boolean | null | undefined>;

/**
 * A web chat write as the routes validated it (POST, PUT or PATCH); fields left out keep their value. The PATCH body
 * is the PUT body made partial, and the POST body only makes `inbox` required, so this covers all three.
 */
export type WebChatInput = z.output<typeof WebChatPatch>;

export type StoredWebChat = Pick<WebChatRow, "name" | "accessType" | "isActive" | "settings">;
type Theme = Record<string, string | boolean>;

function applyTheme(base: Theme, changes: ThemeChanges): Theme {
  const out = { ...base };
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) delete out[key];
    else if (value !== undefined) out[key] = value;
  }
  return out;
}

/**
 * The web chat as it will be stored after a write. Fields left out keep their value; themes
 * replace the stored one (PUT) or merge into it key by key (PATCH).
 */
export function applyWebChatInput(current: StoredWebChat, input: WebChatInput, mergeThemes: boolean): StoredWebChat {
  const { name, accessType, isActive, inbox: _inbox, theme, darkTheme, customDomain, ...rest } = input;
  const given = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined));
  const settings: WebChatSettings = { ...current.settings, ...given };
  if (theme) settings.theme = applyTheme(mergeThemes ? (current.settings.theme ?? {}) : {}, theme);
  if (darkTheme) settings.darkTheme = applyTheme(mergeThemes ? (current.settings.darkTheme ?? {}) : {}, darkTheme);
  if (customDomain !== undefined) {
    const same = customDomain && current.settings.customDomain?.domain === customDomain.domain;
    settings.customDomain =
      customDomain === null
        ? null
        : same
          ? current.settings.customDomain
          : { id: uuidv7(), domain: customDomain.domain, status: "pending" };
  }
  return {
    name: name ?? current.name,
    accessType: accessType ?? current.accessType,
    isActive: isActive ?? current.isActive,
    settings,
  };
}

const alreadyHasOne = () => conflict("This inbox already has a web chat.");
const notWebInbox = () => fieldError("inbox", "Must be a web inbox of this organization.");

/**
 * Creates the web chat of a web inbox without one (400 for another inbox or one deleted meanwhile, 409 when it has
 * one); unset fields take a new web chat's defaults, uploaded images are published with the write (their upload
 * rows are in `data`, the organization's data plane).
 */
export async function createWebChat(
  env: Bindings,
  db: Db,
  data: Db,
  organizationId: string,
  input: z.output<typeof WebChatCreate>,
  origin: string,
): Promise<WebChatRecord> {
  const webInbox = () => findInbox(db, organizationId, input.inbox.id, eq(inboxes.channelType, "web"));
  const inbox = await webInbox();
  if (!inbox) throw notWebInbox();
  if (inbox.channel) throw alreadyHasOne();
  const fresh = {
    name: inbox.inbox.name,
    accessType: "public" as const,
    isActive: true,
    settings: defaultWebChatSettings(),
  };
  // Checked before the images are published: a refused write leaves nothing behind.
  if (input.customDomain) await requireDomainFree(db, input.customDomain.domain, null);
  const id = uuidv7();
  const images = await publishWebChatImages(env, data, { organizationId, webChatId: id, origin }, input);
  const stored = applyWebChatInput(fresh, { ...input, ...images.urls }, false);
  try {
    await db.insert(webChats).values({ ...stored, id, organizationId, inboxId: inbox.inbox.id });
  } catch (err) {
    await images.discard();
    if (isUniqueViolation(err)) throw alreadyHasOne();
    // The inbox deleted since the read breaks the insert's foreign key: the answer a create naming no inbox gets.
    if (!(await webInbox())) throw notWebInbox();
    throw err;
  }
  await images.done();
  return await writtenWebChat(db, organizationId, id);
}

/** The web chat as a write left it; 404 when its inbox was deleted meanwhile (the web chat goes with it). */
async function writtenWebChat(db: Db, organizationId: string, id: string): Promise<WebChatRecord> {
  const view = await getWebChat(db, organizationId, id);
  if (!view) throw notFound();
  return webChatRecord(view);
}

const jsonPath = (key: string) => `$."${key}"`;
const jsonValue = (value: unknown) => sql`json(${JSON.stringify(value ?? null)})`;

/**
 * A theme as a PATCH leaves it: each key it changed set (or removed) in the theme the row holds when the UPDATE runs,
 * so a key another PATCH changed since the read stays as that one left it.
 */
function mergedTheme(key: "theme" | "darkTheme", read: Theme, stored: Theme): SQL {
  const set = Object.entries(stored).filter(([name, value]) => read[name] !== value);
  const removed = Object.keys(read).filter((name) => !(name in stored));
  let theme = sql`coalesce(json_extract(${webChats.settings}, ${jsonPath(key)}), '{}')`;
  if (set.length)
    theme = sql`json_set(${theme}, ${sql.join(
      set.map(([name, value]) => sql`${jsonPath(name)}, ${jsonValue(value)}`),
      sql`, `,
    )})`;
  if (removed.length)
    theme = sql`json_remove(${theme}, ${sql.join(
      removed.map((name) => sql`${jsonPath(name)}`),
      sql`, `,
    )})`;
  return sql`json(${theme})`;
}

/**
 * What a write changed, as the UPDATE's values: the columns that differ, and the settings' keys that differ set in the
 * stored JSON (json_set, each key whole, but a PATCH's themes key by key), the others left as the row holds them. A
 * write of the settings read before would undo one made since by another statement (a new identity secret, a domain's
 * verified status, another PATCH's theme key).
 */
function changesOf(read: StoredWebChat, stored: StoredWebChat, mergeThemes: boolean) {
  const columns = (["name", "accessType", "isActive"] as const).filter((key) => read[key] !== stored[key]);
  const before = new Map(Object.entries(read.settings));
  const changed = Object.entries(stored.settings).filter(
    ([key, value]) => JSON.stringify(value) !== JSON.stringify(before.get(key)),
  );
  const values = changed.map(([key, value]) => {
    const merged = mergeThemes && (key === "theme" || key === "darkTheme");
    const written = merged ? mergedTheme(key, read.settings[key] ?? {}, value as Theme) : jsonValue(value);
    return sql`${jsonPath(key)}, ${written}`;
  });
  return {
    ...Object.fromEntries(columns.map((key) => [key, stored[key]])),
    ...(values.length ? { settings: sql`json_set(${webChats.settings}, ${sql.join(values, sql`, `)})` } : {}),
  };
}

/** PUT replaces the themes, PATCH merges them key by key; other fields left out keep their value. 404 for another
 * organization's. */
export async function updateWebChat(
  env: Bindings,
  db: Db,
  data: Db,
  organizationId: string,
  id: string,
  input: WebChatInput,
  mergeThemes: boolean,
  origin: string,
): Promise<WebChatRecord> {
  const view = await getWebChat(db, organizationId, id);
  if (!view) throw notFound();
  if (input.inbox && input.inbox.id !== view.inbox.id)
    throw fieldError("inbox", "The inbox of a web chat cannot change.");
  // Checked before the images are published: a refused write leaves nothing behind.
  const domain = input.customDomain?.domain;
  if (domain && domain !== view.webChat.settings.customDomain?.domain) await requireDomainFree(db, domain, id);
  const images = await publishWebChatImages(env, data, { organizationId, webChatId: id, origin }, input);
  const stored = applyWebChatInput(view.webChat, { ...input, ...images.urls }, mergeThemes);
  // None when its inbox was deleted since the read (the web chat goes with it): 404, the copies gone again.
  const written = await db
    .update(webChats)
    .set({ ...changesOf(view.webChat, stored, mergeThemes), updatedAt: Date.now() })
    .where(eq(webChats.id, id))
    .returning({ id: webChats.id })
    .catch(async (err) => {
      await images.discard();
      throw err;
    });
  if (!written.length) {
    await images.discard();
    throw notFound();
  }
  await images.done();
  // The public files of images this write replaced or cleared (a visitor's cached page may show one a moment longer).
  const replaced = replacedWebChatImages(id, view.webChat.settings, stored.settings);
  await removePublishedFiles(env, data, replaced);
  return await writtenWebChat(db, organizationId, id);
}

/**
 * Checks the custom domain's TXT record and stores the domain's new status (`active` or `failed`);
 * 404 for another organization's web chat, 400 without a custom domain. Answers the web chat and
 * the record the DNS must hold.
 */
export async function verifyWebChatDomain(env: Bindings, db: Db, organizationId: string, id: string) {
  const view = await getWebChat(db, organizationId, id);
  if (!view) throw notFound();
  const domain = view.webChat.settings.customDomain;
  if (!domain) throw badRequest("This web chat has no custom domain.");
  const verified = await domainVerified(txtResolver(env), domain.domain, domain.id);
  // Only the status changes, only while the claim is the one checked, and a verified claim only while no other web
  // chat serves the domain: one statement, so two verifications at once cannot both win.
  const [changed] = await db
    .update(webChats)
    .set({
      settings: sql`json_set(${webChats.settings}, '$.customDomain.status', ${verified ? "active" : "failed"})`,
      updatedAt: Date.now(),
    })
    .where(
      and(
        eq(webChats.id, id),
        eq(webChats.organizationId, organizationId),
        sql`json_extract(${webChats.settings}, '$.customDomain.id') = ${domain.id}`,
        verified
          ? notExists(db.select({ id: webChats.id }).from(webChats).where(domainServedElsewhere(domain.domain, id)))
          : undefined,
      ),
    )
    .returning({ id: webChats.id });
  if (!changed && verified) await requireDomainFree(db, domain.domain, id);
  const record = await writtenWebChat(db, organizationId, id);
  return {
    ...record,
    verification: { recordName: challengeName(domain.domain), recordValue: challengeValue(domain.id) },
  };
}

/** A new identity secret for the web chat, stored sealed (it replaces the old at once); 404 for another organization's.
 * */
export async function replaceIdentitySecret(env: Bindings, db: Db, organizationId: string, id: string) {
  const secret = `wcs_${randomBase62(40)}`;
  const sealed = await encryptSecret(secret, env.ENCRYPTION_KEY);
  const [row] = await db
    .update(webChats)
    .set({
      settings: sql`json_set(${webChats.settings}, '$.identitySecretSealed', ${sealed})`,
      updatedAt: Date.now(),
    })
    .where(and(eq(webChats.id, id), eq(webChats.organizationId, organizationId)))
    .returning({ id: webChats.id });
  if (!row) throw notFound();
  return secret;
}
