import { z } from "@hono/zod-openapi";
import type { apiKeys } from "../../db/schema";
import { Timestamp } from "../../lib/openapi";
import { ms } from "../../lib/time";

export const ApiKeySchema = z
  .object({
    id: z.string().openapi({
      description: "The key's id (not the key itself, which is shown only when made)",
      example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d",
    }),
    name: z.string().openapi({ description: "The key's name, to tell keys apart", example: "CI" }),
    prefix: z.string().openapi({ description: "First characters of the key", example: "ak_4f3aB" }),
    organization: z
      .string()
      .nullable()
      .openapi({ description: "Organization the key acts in by default", example: null }),
    expiresAt: Timestamp.nullable(),
    revokedAt: Timestamp.nullable(),
    lastUsedAt: Timestamp.nullable(),
    createdAt: Timestamp,
  })
  .openapi("ApiKey");

export type ApiKeyRecord = z.infer<typeof ApiKeySchema>;

export const apiKeyRecord = (k: typeof apiKeys.$inferSelect): ApiKeyRecord => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
  organization: k.organizationId,
  expiresAt: ms(k.expiresAt),
  revokedAt: ms(k.revokedAt),
  lastUsedAt: ms(k.lastUsedAt),
  createdAt: ms(k.createdAt)!,
});
