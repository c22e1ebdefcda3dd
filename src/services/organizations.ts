import { and, asc, count, eq } from "drizzle-orm";
import type { Bindings, Db } from "../env";
import { knowledgeBases, members, organizations, organizationUsage, sqlDatabases, webChats } from "../db/schema";
import { type Page, type PageWindow, paginate } from "../db/paginate";
import { fieldError, forbidden, notFound } from "../lib/errors";
import { uuidv7 } from "../lib/ids";
import { deletePrefix } from "../lib/r2";
import { SEGMENT_PREFIX } from "./webhooks/segments";
import { RECORD_SEGMENT_PREFIX } from "./statistics/record-segments";
import { TOOL_RECORD_SEGMENT_PREFIX } from "./tools/record-segments";
import { organizationInserts } from "./accounts";
import { countedChatbots } from "./chatbots/quota";
import { deleteKnowledgeBase } from "./knowledge/content";
import { LOGO_FIELDS, type LogoField, readLogoPart, replacedLogos, storeLogo } from "./organization-logos";
import { planOf, type PlanSettings, planSettings } from "./plans";
import { type OrganizationRecord, organizationRecordOf } from "./records/organizations";
import { managedDatabase } from "./sql/write";
import { deleteOrganizationTerms } from "./conversation/search-terms";
import { fileSpecs } from "./uploads/file-specs";
import { countUpload, type NewUpload, pastUploadBytes, storedUploadBytes, uploadRoom } from "./uploads/allowance";
import { storedSizes } from "./uploads/store";
import { removePublishedFiles } from "./uploads/web-chat-images";
import { forgetOrganizationConversations } from "./conversation/forget";
import { deleteOrganizationData } from "./purges";
import { organizationChannelsLeaving } from "./channels/disconnect";
import { dataDb, dataDbs } from "./shards";
import { dataParts } from "./shards/parts";
import { onEachPart } from "./shards/parts-sum";
import { definedFields } from "../lib/patch";

type OrganizationRow = typeof organizations.$inferSelect;

export const currentMonth = (now = Date.now()) => new Date(now).toISOString().slice(0, 7);

/**
 * The organization record, with the usage its statistics count read now: organization_usage of each of its data parts
 * (`parts`), added, and the bytes its uploads store (uploads/allowance.ts).
 */
export async function organizationRecord(
  db: Db,
  parts: Db[],
  org: OrganizationRow,
  plans: PlanSettings,
  now = Date.now(),
): Promise<OrganizationRecord> {
  const [chatbotsCount, usages, uploadedBytes] = await Promise.all([
    countedChatbots(db, org.id),
    onEachPart(parts, (data) =>
      data
        .select({ words: organizationUsage.wordsCount, conversations: organizationUsage.conversationsCount })
        .from(organizationUsage)
        .where(and(eq(organizationUsage.organizationId, org.id), eq(organizationUsage.month, currentMonth(now)))),
    ),
    storedUploadBytes(db, parts, org.id),
  ]);
  const figures = { words: 0, conversations: 0, uploadedBytes };
  for (const [usage] of usages) {
    figures.words += usage?.words ?? 0;
    figures.conversations += usage?.conversations ?? 0;
  }
  return organizationRecordOf(org, { chatbotsCount, ...figures }, plans, now);
}

export async function getOrganizationRecord(db: Db, parts: Db[], id: string, plans: PlanSettings) {
  const [org] = await db.select().from(organizations).where(eq(organizations.id, id));
  return org ? organizationRecord(db, parts, org, plans) : null;
}

/** The organizations the user is a member of, oldest first: a page, or every one without `window`. */
export function listOrganizations(
  env: Bindings,
  db: Db,
  userId: string,
  plans: PlanSettings,
): Promise<OrganizationRecord[]>;
export function listOrganizations(
  env: Bindings,
  db: Db,
  userId: string,
  plans: PlanSettings,
  window: PageWindow,
): Promise<Page<OrganizationRecord>>;
export async function listOrganizations(
  env: Bindings,
  db: Db,
  userId: string,
  plans: PlanSettings,
  window?: PageWindow,
) {
  const mine = eq(members.userId, userId);
  const rows = db
    .select({ organization: organizations })
    .from(organizations)
    .innerJoin(members, eq(members.organizationId, organizations.id))
    .where(mine)
    .orderBy(asc(organizations.createdAt), asc(organizations.id));
  const records = (list: { organization: OrganizationRow }[]) =>
    Promise.all(
      list.map(async ({ organization }) =>
        organizationRecord(db, await dataParts(env, organization.id), organization, plans),
      ),
    );
  if (!window) return records(await rows);
  const page = await paginate(window, db.select({ n: count() }).from(members).where(mine), ({ limit, offset }) =>
    rows.limit(limit).offset(offset),
  );
  return { count: page.count, items: await records(page.items) };
}

/** A new organization owned by the user, its first member; logos are URLs here. */
export async function createOrganization(
  env: Bindings,
  db: Db,
  userId: string,
  input: { name: string; compactLogo: string | null; fullLogo: string | null },
  plans: PlanSettings,
) {
  const id = uuidv7();
  await db.batch([
    ...organizationInserts(db, userId, input.name, id, plans.defaultPlan.id),
    db
      .update(organizations)
      .set({ compactLogo: input.compactLogo, fullLogo: input.fullLogo })
      .where(eq(organizations.id, id)),
  ]);
  return (await getOrganizationRecord(db, await dataParts(env, id), id, plans))!;
}

/**
 * Writes the fields of an update the caller was allowed to send. `logos` is the multipart form's
 * (with the request's origin, for the stored files' URLs): its parts are all checked before any is
 * stored, and only a plan with `logoUploads` takes files (403), within its upload bytes (403). Logo files the update
 * replaces or clears are removed once it is stored.
 */
export async function updateOrganization(
  env: Bindings,
  db: Db,
  organizationId: string,
  body: Record<string, unknown>,
  logos: { origin: string } | null,
) {
  const plans = planSettings(env);
  if (typeof body.planId === "string" && !plans.plans.has(body.planId)) {
    throw fieldError(
      "planId",
      `Unknown plan "${body.planId}"; the configured plans are: ${[...plans.plans.keys()].join(", ")}.`,
    );
  }
  const [org] = await db
    .select({ planId: organizations.planId, compactLogo: organizations.compactLogo, fullLogo: organizations.fullLogo })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  if (!org) throw notFound();
  const changes: Record<string, unknown> = definedFields(body);
  // The spec's one move of the approval status: a paid plan's activation approves the organization, whatever it was
  // (pending, rejected). An approval status sent with it is staff's own word on it, and stands.
  if (typeof body.planId === "string" && plans.plans.get(body.planId)!.paid && body.approvalStatus === undefined)
    changes.approvalStatus = "approved";
  const stored: NewUpload[] = [];
  if (logos) {
    const plan = planOf(plans, org.planId);
    if (!plan.logoUploads) {
      throw forbidden(`The ${plan.planName} plan does not include logo uploads; send logo URLs as JSON instead.`);
    }
    const specs = fileSpecs(env).organization;
    const parts = LOGO_FIELDS.map(
      (field) =>
        [
          field,
          readLogoPart(field, body[field], specs[field === "compactLogo" ? "compact_logo" : "full_logo"]),
        ] as const,
    );
    await requireLogosRoom(env, organizationId, org, parts);
    for (const [field, value] of parts) {
      if (value instanceof File) {
        const logo = await storeLogo(env.FILES, logos.origin, organizationId, field, value);
        changes[field] = logo.url;
        stored.push(logo.row);
      } else if (value !== undefined) changes[field] = value;
    }
  }
  const replaced = replacedLogos(organizationId, org, changes);
  const data = stored.length || replaced.length ? await dataDb(env, organizationId) : null;
  // The room checked above is read, not held: the write that counts the stored logos is what holds (all or none; the
  // logos they replace leave room), before the update shows them (docs/decisions.md, "Plans").
  if (data && stored.length) await countUpload(env, data, stored, replaced);
  if (Object.keys(changes).length)
    await db
      .update(organizations)
      .set(changes as Partial<typeof organizations.$inferInsert>)
      .where(eq(organizations.id, organizationId));
  if (data) await removePublishedFiles(env, data, replaced);
  return (await getOrganizationRecord(db, await dataParts(env, organizationId), organizationId, plans))!;
}

/** 403 when the logo files of a multipart update would take the organization past its plan's upload bytes, counting
 * the bytes of the stored logos they replace as freed. */
async function requireLogosRoom(
  env: Bindings,
  organizationId: string,
  before: { compactLogo: string | null; fullLogo: string | null },
  parts: readonly (readonly [LogoField, File | string | null | undefined])[],
) {
  const files = parts.flatMap(([, value]) => (value instanceof File ? [value] : []));
  if (!files.length) return;
  const room = await uploadRoom(env, organizationId);
  if (!room) return;
  const data = await dataDb(env, organizationId);
  const after = Object.fromEntries(parts.filter(([, value]) => value !== undefined));
  const freed = await storedSizes(data, organizationId, replacedLogos(organizationId, before, after));
  const adding = files.reduce((n, file) => n + file.size, 0) - freed;
  if (adding > room.left) throw pastUploadBytes(room, adding);
}

/**
 * Deletes an organization. Its data-plane rows go first, by pages (services/purges.ts), then its `DB` row with
 * the rest (ON DELETE CASCADE; its search terms, which reference nothing, by their own delete: it leads their
 * key); what lives outside D1 is removed too: knowledge bases' vectors and file bytes (purge jobs, as when a base
 * is deleted), and, once the rows are gone, its public files (logos, web chat images), skill packages, uploads and
 * managed SQL databases, and its channels' registrations with their platforms (a Telegram bot's webhook, as a
 * channel's disconnect removes it: channels/disconnect.ts).
 * Returns the removal of the latter, for the caller to wait on in the background.
 */
export async function deleteOrganization(
  env: Bindings,
  db: Db,
  organizationId: string,
): Promise<() => Promise<unknown>> {
  const [bases, managed, chats] = await Promise.all([
    db.select({ id: knowledgeBases.id }).from(knowledgeBases).where(eq(knowledgeBases.organizationId, organizationId)),
    db
      .select({ id: sqlDatabases.id })
      .from(sqlDatabases)
      .where(and(eq(sqlDatabases.organizationId, organizationId), eq(sqlDatabases.databaseType, "managed"))),
    db.select({ id: webChats.id }).from(webChats).where(eq(webChats.organizationId, organizationId)),
  ]);
  const leavePlatforms = await organizationChannelsLeaving(env, db, organizationId);
  for (const base of bases) await deleteKnowledgeBase(env, db, base.id);
  // Every data plane, not only the one the directory names: a move of it under way has copied rows to its shard, and
  // its parts are in others.
  for (const plane of dataDbs(env)) await deleteOrganizationData(plane, organizationId);
  // While the keys cascade, a conversation started since the pages above goes with the row: it is named first.
  for (const plane of dataDbs(env)) await forgetOrganizationConversations(plane, organizationId);
  await db.delete(organizations).where(eq(organizations.id, organizationId));
  await deleteOrganizationTerms(env, organizationId);
  return () =>
    Promise.all([
      ...[
        `public/organizations/${organizationId}/`,
        ...chats.map((chat) => `public/web-chats/${chat.id}/`),
        `skills/${organizationId}/`,
        `uploads/${organizationId}/`,
        `${SEGMENT_PREFIX}${organizationId}/`,
        `${RECORD_SEGMENT_PREFIX}${organizationId}/`,
        `${TOOL_RECORD_SEGMENT_PREFIX}${organizationId}/`,
      ].map((prefix) => deletePrefix(env.FILES, prefix)),
      ...managed.map((row) => managedDatabase(env, row.id).destroy()),
      leavePlatforms(),
    ]);
}
