import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json, jsonBody, nameText } from "../../lib/openapi";
import { actingOrganizationOrNone } from "../../services/access";
import { createApiKey } from "../../services/api-keys";
import { ApiKeySchema } from "../../services/records/api-keys";

const CreateApiKey = z.object({
  name: nameText(100).openapi({
    description: "A label for the key, 1-100 characters, to tell it apart in lists; it grants nothing",
    example: "CI",
  }),
  expiresAt: z
    .union([
      z.number().int(),
      z.string().regex(/^\d+$/).transform(Number),
      z.iso.datetime({ offset: true }).transform((s) => Date.parse(s)),
    ])
    .nullable()
    .optional()
    // Digits past 2^53 would be stored as a float and read back as "1e+26", which no client can take for a time.
    .refine((t) => t === null || t === undefined || Number.isSafeInteger(t), "Must be a time in epoch milliseconds")
    .refine((t) => t === null || t === undefined || t > Date.now(), "Must be in the future")
    .openapi({
      description:
        "Expiry as epoch milliseconds or ISO 8601; absent means never. A request made with a key that expires (or a " +
        "console session signed in with one) must give one no later than that key's (400 otherwise)",
      example: "2027-01-01T00:00:00Z",
    }),
});

const Created = ApiKeySchema.extend({
  key: z.string().openapi({ description: "The key itself, shown only in this response", example: "ak_4f3aB..." }),
}).openapi("CreatedApiKey");

const route = createRoute({
  method: "post",
  path: "/api-keys/",
  tags: ["API keys"],
  summary: "Create an API key for the current user",
  request: jsonBody(CreateApiKey),
  responses: { 201: json(Created, "Created; `key` is shown once"), ...errorResponses(400) },
});

export const registerCreateApiKey = (r: Router) =>
  r.openapi(route, async (c) => {
    const body = c.req.valid("json");
    const organizationId = await actingOrganizationOrNone(c);
    const created = await createApiKey(c.var.db, c.var.principal, organizationId, body.name, body.expiresAt ?? null);
    return c.json(created, 201);
  });
