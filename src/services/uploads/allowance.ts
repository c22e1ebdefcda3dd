// What an organization's uploads store (`usedUploadFileSizeTotal`; docs/decisions.md, "Plans") is read from the rows
// that hold their sizes when it is shown, and never counted apart: a removal frees its bytes with its row, whichever
// path or cascade takes it.
import { eq, sum } from "drizzle-orm";
import type { Db } from "../../env";
import { knowledgeBaseFiles, knowledgeBases, skills, uploads } from "../../db/schema";
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
