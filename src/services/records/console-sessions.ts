import { z } from "@hono/zod-openapi";
import { Timestamp } from "../../lib/openapi";
import { ms } from "../../lib/time";
import { sessionExpiresAt, type SessionRow } from "../console-sessions";
import { PERMISSIONS } from "../permissions";
import { UserSchema } from "./users";

const EXAMPLE_ID = "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d";

export const ConsoleSessionSchema = z
  .object({
    id: z.string().openapi({ description: "The session's id", example: EXAMPLE_ID }),
    method: z.enum(["password", "api_key"]).openapi({ description: "How the user signed in", example: "password" }),
    userAgent: z.string().nullable().openapi({ description: "The browser that signed in", example: "Mozilla/5.0 ..." }),
    organization: z.string().nullable().openapi({
      description:
        "Organization it acts in unless `X-Organization-Id` says otherwise (the key's, when signed in with one)",
      example: null,
    }),
    current: z.boolean().openapi({ description: "Whether this is the session of the request", example: true }),
    createdAt: Timestamp,
    lastUsedAt: Timestamp,
    expiresAt: Timestamp.openapi({
      description:
        "When it lapses unless used again: 12 hours after its last use, or when the API key it was signed in " +
        "with expires, whichever is first",
    }),
  })
  .openapi("ConsoleSession", { description: "A session of the console, signed in with a password or an API key" });

const Membership = z
  .object({
    organization: z
      .object({
        id: z.string().openapi({ description: "The organization's id", example: EXAMPLE_ID }),
        name: z.string().openapi({ description: "The organization's name", example: "Acme" }),
      })
      .openapi({ description: "The organization" }),
    isOwner: z.boolean().openapi({ description: "Owners can do everything in the organization", example: true }),
    permissions: z.array(z.string()).openapi({
      description:
        "Permission codenames the user holds there (the catalogue of `GET /permissions/`), implied ones " +
        "included: `x.manage` gives `x.view`; owners hold every one",
      example: [PERMISSIONS[5].codename, PERMISSIONS[6].codename],
    }),
  })
  .openapi("Membership");

export const ConsoleSessionStateSchema = z
  .object({
    session: ConsoleSessionSchema,
    user: UserSchema,
    memberships: z
      .array(Membership)
      .openapi({ description: "Every organization the user is a member of, oldest membership first" }),
  })
  .openapi("ConsoleSessionState");

export type ConsoleSessionRecord = z.infer<typeof ConsoleSessionSchema>;

/** `currentId`: the session of the request, if any, so a list can mark it. */
export const consoleSessionRecord = (s: SessionRow, currentId: string | null): ConsoleSessionRecord => ({
  id: s.id,
  method: s.method,
  userAgent: s.userAgent,
  organization: s.organizationId,
  current: s.id === currentId,
  createdAt: ms(s.createdAt)!,
  lastUsedAt: ms(s.lastUsedAt)!,
  expiresAt: ms(sessionExpiresAt(s))!,
});
