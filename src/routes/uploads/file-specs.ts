import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { json } from "../../lib/openapi";
import { fileSpecs } from "../../services/uploads/file-specs";
import { AllowedFileSpecsSchema } from "./schema";

const route = createRoute({
  method: "get",
  path: "/allowed-file-specs/",
  tags: ["Attachments"],
  summary: "What may be uploaded where: content types, extensions and size per model and field",
  description:
    "Any authenticated user. Keys of each rule are snake_case, as in the spec. Every upload path enforces " +
    "these rules (configurable with `ALLOWED_FILE_SPECS`).",
  responses: { 200: json(AllowedFileSpecsSchema, "The file specs") },
});

export const registerAllowedFileSpecs = (r: Router) => r.openapi(route, (c) => c.json(fileSpecs(c.env), 200));
