// A plan's upload bytes (PLANS `uploadBytes`; docs/decisions.md, "Plans"): what an organization stores of the files it
// uploaded is read from the rows that hold their sizes, when it is shown or an upload is checked, and never counted
// apart: a removal frees its bytes with its row, whichever path or cascade takes it.
import type { BatchItem } from "drizzle-orm/batch";
import { and, eq, inArray, type SQL, sql, sum } from "drizzle-orm";
import type { Bindings, Db } from "../../env";
import { getDb } from "../../db";
import { knowledgeBaseFiles, knowledgeBases, skills, uploads } from "../../db/schema";
import { type ApiError, forbidden } from "../../lib/errors";
import { configuredPlanOf, type Plan } from "../plans";
import { dataDb } from "../shards";
import { onEachPart } from "../shards/parts-sum";
import { chunk } from "../../lib/sql";
import { markUploaded, type UploadRow } from "./store";

/**
 * Bytes of the organization's uploads stored now:
 * - `uploads` rows in its data plane (`parts`; only its own shard holds them, "One organization over several
 *   parts"): each object under `uploads/<organization>/` once its bytes arrived (presigned, direct, a channel's media)
 *   and the public copies of web chat images and organization logos;
 * - its knowledge base files and uploaded skill packages (`db`, the control plane).
 * What the platform makes of them (parsed text, vectors, a package's unpacked resources) is not counted.
 */
export async function storedUploadBytes(db: Db, parts: Db[], organizationId: string): Promise<number> {
  const [inParts, inControl] = await Promise.all([
    dataPlaneBytes(parts, organizationId),
    controlPlaneBytes(db, organizationId),
  ]);
  return inParts + inControl;
}

/** The bytes of the organization's `uploads` rows in its data plane (`parts`). */
async function dataPlaneBytes(parts: Db[], organizationId: string): Promise<number> {
  const inParts = await onEachPart(parts, (data) =>
    data
      .select({ bytes: sum(uploads.size) })
      .from(uploads)
      .where(eq(uploads.organizationId, organizationId)),
  );
  return inParts.flat().reduce((n, r) => n + Number(r.bytes ?? 0), 0);
}

/** The reads of the bytes of the organization's knowledge base files and of its uploaded skill packages. */
const controlPlaneSums = (db: Db, organizationId: string) =>
  [
    db
      .select({ bytes: sql<number>`coalesce(sum(${knowledgeBaseFiles.size}), 0)` })
      .from(knowledgeBaseFiles)
      .innerJoin(knowledgeBases, eq(knowledgeBases.id, knowledgeBaseFiles.knowledgeBaseId))
      .where(eq(knowledgeBases.organizationId, organizationId)),
    db
      .select({ bytes: sql<number>`coalesce(sum(${skills.packageSize}), 0)` })
      .from(skills)
      .where(eq(skills.organizationId, organizationId)),
  ] as const;

/** The bytes of the organization's knowledge base files and uploaded skill packages (the control plane's part). */
async function controlPlaneBytes(db: Db, organizationId: string): Promise<number> {
  const [[files], [packages]] = await db.batch(controlPlaneSums(db, organizationId));
  return Number(files?.bytes ?? 0) + Number(packages?.bytes ?? 0);
}

/** The plan's cap on the organization's stored uploads, what it stores and what is left of it. */
export interface UploadRoom {
  plan: Plan & { uploadBytes: number };
  used: number;
  left: number;
}

/**
 * The room the organization's plan leaves for uploads; null when nothing limits them: no `PLANS`, or a plan without
 * `uploadBytes` (then nothing is read but the plan, remembered per isolate). `data`: its data plane, when the caller
 * has it. Read, not reserved: two uploads checked at one moment may both pass this check; `countArrival` (and
 * `pastControlPlaneCap` for the control plane's rows) is what holds.
 */
export async function uploadRoom(env: Bindings, organizationId: string, data?: Db): Promise<UploadRoom | null> {
  const db = getDb(env.DB);
  const plan = await configuredPlanOf(env, db, organizationId);
  if (!plan || plan.uploadBytes === null) return null;
  const used = await storedUploadBytes(db, [data ?? (await dataDb(env, organizationId))], organizationId);
  return roomOf(plan, plan.uploadBytes, used);
}

const roomOf = (plan: Plan, uploadBytes: number, used: number): UploadRoom => ({
  plan: { ...plan, uploadBytes },
  used,
  left: Math.max(0, uploadBytes - used),
});

const formatted = (n: number) => n.toLocaleString("en-US");

/**
 * The 403 `permission_denied` of an upload past the plan's bytes (the contract's "the plan lacks the feature", as a
 * plan's other quotas). `size`: the file's bytes when known; else it is only known to be more than what is left.
 */
export function pastUploadBytes(room: UploadRoom, size?: number): ApiError {
  const file =
    size === undefined
      ? `this file is larger than the ${formatted(room.left)} left`
      : `this upload adds ${formatted(size)}`;
  return forbidden(
    `The ${room.plan.planName} plan stores up to ${formatted(room.plan.uploadBytes)} bytes of uploads; ` +
      `${formatted(room.used)} are stored and ${file}. Delete files to make room, or move to another plan.`,
  );
}

/** Throws `pastUploadBytes` when storing `bytes` more would take the organization past its plan's upload bytes. */
export async function requireUploadRoom(env: Bindings, organizationId: string, bytes: number, data?: Db) {
  if (bytes <= 0) return;
  const room = await uploadRoom(env, organizationId, data);
  if (room && bytes > room.left) throw pastUploadBytes(room, bytes);
}

/** The cap a control plane write holds the organization's knowledge base files and skill packages to. */
export interface ControlPlaneCap {
  plan: Plan & { uploadBytes: number };
  organizationId: string;
  /** The plan's bytes less the data plane's (read at the check). */
  cap: number;
  /** The organization's data plane, for the refusal's figures. */
  data: Db;
}

/**
 * `requireUploadRoom` for bytes stored in the control plane (knowledge base files, skill packages), with the cap that
 * the write's batch then holds them to (`pastControlPlaneCap`); null when nothing caps them or the write adds
 * nothing. The check reads, it does not reserve: two writes checked at one moment could both pass it, so the batch
 * that writes the rows takes them back when they are past the cap. `freeing`: bytes of data plane uploads the write
 * removes (a file made from an upload), which leave their room to it.
 */
export async function requireControlPlaneRoom(
  env: Bindings,
  organizationId: string,
  bytes: number,
  { data, freeing = 0 }: { data?: Db; freeing?: number } = {},
): Promise<ControlPlaneCap | null> {
  if (bytes - freeing <= 0) return null;
  const db = getDb(env.DB);
  const plan = await configuredPlanOf(env, db, organizationId);
  if (!plan || plan.uploadBytes === null) return null;
  const dataPlane = data ?? (await dataDb(env, organizationId));
  const [inData, inControl] = await Promise.all([
    dataPlaneBytes([dataPlane], organizationId),
    controlPlaneBytes(db, organizationId),
  ]);
  const capped = {
    plan: { ...plan, uploadBytes: plan.uploadBytes },
    organizationId,
    cap: plan.uploadBytes - (inData - freeing),
    data: dataPlane,
  };
  if (inControl + bytes > capped.cap)
    throw pastUploadBytes(roomOf(plan, plan.uploadBytes, inData + inControl), bytes - freeing);
  return capped;
}

/**
 * For the end of the batch that writes knowledge base files or a skill package: whether the organization's control
 * plane bytes, those rows included, are past the cap; a statement taking them back when so makes the cap hold as
 * `countArrival` does in the data plane (the data plane's part is read before, as there the control plane's is).
 */
export function pastControlPlaneCap(db: Db, { organizationId, cap }: ControlPlaneCap): SQL {
  const [files, packages] = controlPlaneSums(db, organizationId);
  return sql`(${files}) + (${packages}) > ${cap}`;
}

/** The 403 of rows taken back past the cap (`pastControlPlaneCap`), as the organization stands now. */
export const pastControlPlaneRoom = (env: Bindings, capped: ControlPlaneCap, size: number) =>
  refusal(env, capped.data, capped.plan, capped.organizationId, size);

/**
 * Counts the `size` bytes that arrived under `key` in the organization's data plane `data` (its upload row) when
 * they keep the organization within its plan's upload bytes. Else the object is removed, the row left as not
 * arrived, and it throws `pastUploadBytes`. The data plane's sum and the write are one statement, so two uploads
 * that passed their checks at one moment cannot both take the last room (docs/decisions.md, "Plans").
 */
export async function countArrival(env: Bindings, data: Db, { organizationId, key, size }: Arrival) {
  const capped = await cappedPlan(env, organizationId);
  if (!capped) return markUploaded(data, key, size);
  if ((await arriveWithin(data, { organizationId, key, size }, capped.cap)).length) return;
  await env.FILES.delete(key);
  throw await refusal(env, data, capped.plan, organizationId, size);
}

/**
 * `countArrival` for the uploads one request made (a file, an organization's logos), whose rows are written with their
 * bytes: all or none, so past the room every object is removed, no row left, and it throws `pastUploadBytes`.
 * `freeing`: keys of uploads the request replaces (removed once it is stored), whose bytes leave room for these.
 */
export async function countUpload(env: Bindings, data: Db, rows: NewUpload[], freeing: string[] = []) {
  const { refused, plan } = await countUploads(env, data, rows, freeing);
  if (!refused.length || !plan) return;
  await removeUploads(
    env,
    data,
    rows.filter((row) => !refused.includes(row)),
  );
  const size = rows.reduce((n, row) => n + row.size, 0);
  throw await refusal(env, data, plan, rows[0].organizationId, size);
}

/**
 * Bytes put straight into R2 (a presigned PUT signed with R2's credentials) arrive unseen: `countArrival` when
 * first used (an attachment or a web chat image names them), `size` as R2 tells it.
 */
export async function countIfUnseen(env: Bindings, data: Db, upload: UploadRow, size: number) {
  if (upload.uploadedAt === null)
    await countArrival(env, data, { organizationId: upload.organizationId, key: upload.key, size });
}

/**
 * `countUpload` for uploads of one organization made at once (a channel message's files), counted in their order in
 * one batch: those past the room are `refused`, their objects removed and no row left; `plan`, the plan that capped
 * them (null when none does). `alongside`: writes of the same data plane that run after the count in the same batch
 * (one transaction), so what refers to the uploads is written with their count or not at all; they see the refused
 * rows as not arrived (`uploadedAt` null).
 */
export async function countUploads(
  env: Bindings,
  data: Db,
  rows: NewUpload[],
  freeing: string[] = [],
  alongside: BatchItem<"sqlite">[] = [],
): Promise<{ refused: NewUpload[]; plan: CappedPlan["plan"] | null }> {
  if (!rows.length) return { refused: [], plan: null };
  const capped = await cappedPlan(env, rows[0].organizationId);
  if (!capped) {
    // D1 binds at most 100 parameters a statement: 7 upload rows (13 columns) an insert.
    const [first, ...rest] = chunk(rows, 7).map((part) => data.insert(uploads).values(part));
    await data.batch([first, ...rest, ...alongside]);
    return { refused: [], plan: null };
  }
  // Each row goes in as not arrived, then arrives if the bytes before it (those just counted included) leave room.
  const [first, ...rest] = rows.flatMap((row) => [
    data.insert(uploads).values({ ...row, size: null, uploadedAt: null }),
    arriveWithin(data, row, capped.cap, freeing),
  ]);
  const counted = await data.batch([first, ...rest, ...alongside]);
  const refused = rows.filter((_, i) => !(counted[2 * i + 1] as { key: string }[]).length);
  await removeUploads(env, data, refused);
  return { refused, plan: capped.plan };
}

async function removeUploads(env: Bindings, data: Db, rows: NewUpload[]) {
  if (!rows.length) return;
  const keys = rows.map((row) => row.key);
  await Promise.all([env.FILES.delete(keys), data.delete(uploads).where(inArray(uploads.key, keys))]);
}

/** An upload row written with its bytes (`countUpload`, `countUploads`). */
export type NewUpload = typeof uploads.$inferInsert & Arrival;
type CappedPlan = { plan: Plan & { uploadBytes: number }; cap: number };

/** The organization's plan when it caps upload bytes, and the cap left to its data plane once the control plane's
 * bytes (read now) are taken off. */
async function cappedPlan(env: Bindings, organizationId: string): Promise<CappedPlan | null> {
  const db = getDb(env.DB);
  const plan = await configuredPlanOf(env, db, organizationId);
  if (!plan || plan.uploadBytes === null) return null;
  return {
    plan: { ...plan, uploadBytes: plan.uploadBytes },
    cap: plan.uploadBytes - (await controlPlaneBytes(db, organizationId)),
  };
}

/** The write that counts `size` bytes under `key` when they and the organization's other uploads (but those it is
 * `freeing`) fit in `cap`; returns the key when it did. */
const arriveWithin = (data: Db, { organizationId, key, size }: Arrival, cap: number, freeing: string[] = []) =>
  data
    .update(uploads)
    .set({ uploadedAt: Date.now(), size })
    .where(
      and(
        eq(uploads.key, key),
        sql`coalesce((select sum(${uploads.size}) from ${uploads} where ${uploads.organizationId} = ${organizationId}
          and ${uploads.key} not in ${[key, ...freeing]}), 0) + ${size} <= ${cap}`,
      ),
    )
    .returning({ key: uploads.key });

/** `pastUploadBytes` as the organization stands now (after the refused upload's bytes were let go). */
async function refusal(env: Bindings, data: Db, plan: CappedPlan["plan"], organizationId: string, size: number) {
  const used = await storedUploadBytes(getDb(env.DB), [data], organizationId);
  return pastUploadBytes(roomOf(plan, plan.uploadBytes, used), size);
}

/** Bytes that arrived under an organization's upload key. */
export interface Arrival {
  organizationId: string;
  key: string;
  size: number;
}
