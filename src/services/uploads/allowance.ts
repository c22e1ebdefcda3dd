// A plan's upload bytes (PLANS `uploadBytes`; docs/decisions.md, "Plans"): what an organization stores of the files it
// uploaded is read from the rows that hold their sizes, when it is shown or an upload is checked, and never counted
// apart: a removal frees its bytes with its row, whichever path or cascade takes it.
import { eq, sum } from "drizzle-orm";
import type { Bindings, Db } from "../../env";
import { getDb } from "../../db";
import { knowledgeBaseFiles, knowledgeBases, skills, uploads } from "../../db/schema";
import { type ApiError, forbidden } from "../../lib/errors";
import { configuredPlanOf, type Plan } from "../plans";
import { dataDb } from "../shards";
import { onEachPart } from "../shards/parts-sum";

/**
 * Bytes of the organization's uploads stored now:
 * - `uploads` rows in its data plane (`parts`; only its own shard holds them, "One organization over several
 *   parts"): each object under `uploads/<organization>/` once its bytes arrived (presigned, direct, a channel's media)
 *   and the public copies of web chat images and organization logos;
 * - its knowledge base files and uploaded skill packages (`db`, the control plane).
 * What the platform makes of them (parsed text, vectors, a package's unpacked resources) is not counted.
 */
export async function storedUploadBytes(db: Db, parts: Db[], organizationId: string): Promise<number> {
  const [inParts, [[files], [packages]]] = await Promise.all([
    onEachPart(parts, (data) =>
      data
        .select({ bytes: sum(uploads.size) })
        .from(uploads)
        .where(eq(uploads.organizationId, organizationId)),
    ),
    db.batch([
      db
        .select({ bytes: sum(knowledgeBaseFiles.size) })
        .from(knowledgeBaseFiles)
        .innerJoin(knowledgeBases, eq(knowledgeBases.id, knowledgeBaseFiles.knowledgeBaseId))
        .where(eq(knowledgeBases.organizationId, organizationId)),
      db
        .select({ bytes: sum(skills.packageSize) })
        .from(skills)
        .where(eq(skills.organizationId, organizationId)),
    ]),
  ]);
  return inParts
    .flat()
    .reduce((n, r) => n + Number(r.bytes ?? 0), Number(files?.bytes ?? 0) + Number(packages?.bytes ?? 0));
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
 * has it. Read, not reserved: two uploads checked at one moment may both pass (each upload target checks again).
 */
export async function uploadRoom(env: Bindings, organizationId: string, data?: Db): Promise<UploadRoom | null> {
  const db = getDb(env.DB);
  const plan = await configuredPlanOf(env, db, organizationId);
  if (!plan || plan.uploadBytes === null) return null;
  const used = await storedUploadBytes(db, [data ?? (await dataDb(env, organizationId))], organizationId);
  return { plan: { ...plan, uploadBytes: plan.uploadBytes }, used, left: Math.max(0, plan.uploadBytes - used) };
}

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
