import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { SupportedFileTypesSchema, supportedFileTypeRecords } from "../../services/records/supported-file-types";
import { KNOWLEDGE_TAG } from "../knowledge-bases/schema";

const route = createRoute({
  method: "get",
  path: "/parsers/supported-file-types/",
  tags: [KNOWLEDGE_TAG],
  summary: "The file types a knowledge base can ingest, with their size limits",
  description: "The same for every organization; a file is typed by its extension, else by its content type.",
  responses: { 200: json(SupportedFileTypesSchema, "Supported file types"), ...errorResponses() },
});

export const registerListSupportedFileTypes = (r: Router) =>
  r.openapi(route, (c) => c.json({ results: supportedFileTypeRecords() }, 200));
