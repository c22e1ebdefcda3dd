import { z } from "@hono/zod-openapi";
import { nameText, uuidParam } from "../../lib/openapi";

export const BATCH_QA_TAG = "Batch QA";

export const WebChatParams = z.object({ webchatPk: uuidParam("webchatPk", "Web chat id") });
export const BatchQaParams = WebChatParams.extend({ id: uuidParam("id", "Batch QA id") });

export const BatchQaCreateBody = z
  .object({
    file: z.string().min(1).max(2000).openapi({
      description:
        "Key of an uploaded .xlsx or .csv (upload-presigned-url with modelName `batch-qa`), or its URL on this service",
      example:
        "uploads/0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d/batch-qa/0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3e/questions.xlsx",
    }),
    filename: nameText(255)
      .optional()
      .openapi({ description: "Name of the file (default: the key's last part)", example: "questions.xlsx" }),
  })
  .openapi("BatchQaCreate");
