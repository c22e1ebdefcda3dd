// Which uploads a member may name by key where a route takes an object already in storage (a knowledge base's import,
// a batch QA's file): one rule for every such route, so none of them lets a key reach what its caller may not read.
import { and, eq, isNotNull } from "drizzle-orm";
import type { Db } from "../../env";
import { attachments, uploads } from "../../db/schema";
import { can, type OrgAccess } from "../access";

/** Who names an upload: what they may read decides which uploads they may use. */
export interface UploadCaller {
  access: OrgAccess;
  userId: string;
  /** The organization's data plane, where its uploads and attachments are. */
  data: Db;
}

/**
 * Whether `key` is an upload of the caller's organization they may use: one they asked for, or a conversation's
 * attachment when they may read conversations (`conversation.view`). The organization alone let a member who may not
 * read conversations take a visitor's attachment by its key (into a knowledge base, or a batch QA run, and read it
 * from there), and take another member's upload not yet sent (a knowledge base's copy even removed it from them).
 */
export async function mayUseUpload({ access, userId, data }: UploadCaller, key: string): Promise<boolean> {
  if (!key.startsWith(`uploads/${access.organizationId}/`)) return false;
  if (key.split("/").some((s) => s === "" || s === "." || s === "..")) return false;
  const [upload] = await data
    .select({ createdBy: uploads.createdBy })
    .from(uploads)
    .where(and(eq(uploads.key, key), eq(uploads.organizationId, access.organizationId)));
  if (!upload) return false;
  if (upload.createdBy === userId) return true;
  if (!can(access, "conversation.view")) return false;
  const [attached] = await data
    .select({ id: attachments.id })
    .from(attachments)
    .where(
      and(
        eq(attachments.key, key),
        eq(attachments.organizationId, access.organizationId),
        isNotNull(attachments.conversationId),
      ),
    )
    .limit(1);
  return !!attached;
}
