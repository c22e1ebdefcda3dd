import { createRoute, type z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../../../env";
import type { Router } from "../../../lib/openapi";
import { errorResponses, json } from "../../../lib/openapi";
import { fieldError } from "../../../lib/errors";
import { acceptOnly } from "../../../middleware/content-type";
import { authorize } from "../../../services/access";
import { getKnowledgeBaseForRead } from "../../../services/knowledge/knowledge-bases";
import { addFiles } from "../../../services/knowledge/files";
import { fetchReferences, readUpload, type Upload } from "../../../services/knowledge/uploads";
import { KnowledgeBaseFileSchema } from "../../../services/records/knowledge-files";
import { KNOWLEDGE_TAG } from "../schema";
import { FileReferences, FileUploadForm, KnowledgeBaseParams } from "./schema";

/** A whole multipart request: up to 20 files of at most 20 MiB each is more than one request should carry. */
const MULTIPART_MAX_BYTES = 100 * 1024 * 1024;
const MAX_FILES = 20;

const route = createRoute({
  method: "post",
  path: "/knowledge-bases/{knowledgeBaseId}/files/",
  tags: [KNOWLEDGE_TAG],
  summary: "Add files to a knowledge base",
  description:
    "Needs `knowledge_base.manage`. Either multipart/form-data with 1 to 20 `file` parts, or JSON `{files: " +
    "[{file, filename, parser?}]}` where `file` is an " +
    "http(s) URL the service fetches (private and internal addresses are refused), the key of an upload to this " +
    "service's storage that you made, or of a conversation's attachment when you have `conversation.view` (its " +
    "absolute URL names it too), or a file of a knowledge base you can see (its key, or its record's `file` URL). " +
    "Types and size limits: `GET /api/parsers/supported-file-types/` (400 for another type, 413 over the limit). " +
    "Every file is checked before any is stored. Files start `initial` and are parsed, chunked, embedded and " +
    "indexed in the background.",
  middleware: [acceptOnly(["json", "multipart"], { required: true, maxMultipartBytes: MULTIPART_MAX_BYTES })] as const,
  request: {
    params: KnowledgeBaseParams,
    body: {
      // Not `required`: zod-openapi would then run both validators whatever the media type; acceptOnly requires a body.
      required: false,
      description: "JSON references (snake_case keys accepted), or multipart/form-data with `file` parts",
      content: { "application/json": { schema: FileReferences }, "multipart/form-data": { schema: FileUploadForm } },
    },
  },
  responses: {
    201: json(KnowledgeBaseFileSchema.array(), "The created file records"),
    ...errorResponses(400, 403, 404, 413, 415),
  },
});

/** The `file` parts of a multipart body (zod's form validator keeps only one part of a name). */
async function multipartUploads(c: Context<AppEnv>): Promise<Upload[]> {
  const parts = (await c.req.formData()).getAll("file");
  if (!parts.length) throw fieldError("file", "Send at least one `file` part.");
  if (parts.length > MAX_FILES) throw fieldError("file", `At most ${MAX_FILES} files per request.`);
  if (parts.some((p) => typeof p === "string")) throw fieldError("file", "Each `file` part must be a file, not text.");
  return Promise.all((parts as File[]).map((part) => readUpload(c.env, part)));
}

export const registerCreateFiles = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "knowledge_base.manage");
    const userId = c.var.principal.userId;
    const kb = await getKnowledgeBaseForRead(c.var.db, access, userId, c.req.valid("param").knowledgeBaseId);
    const origin = new URL(c.req.url).origin;
    const caller = { access, userId, data: c.var.data };
    const refs = () => (c.req.valid("json") as z.infer<typeof FileReferences>).files;
    const uploads = /^multipart\/form-data/i.test(c.req.header("Content-Type") ?? "")
      ? await multipartUploads(c)
      : await fetchReferences(c.env, c.var.db, caller, origin, refs());
    return c.json(await addFiles(c.env, c.var.db, c.var.data, kb, userId, uploads, origin), 201);
  });
