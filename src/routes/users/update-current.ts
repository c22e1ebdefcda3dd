import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../lib/openapi";
import { updateProfile } from "../../services/users";
import { InvitationCodeField, PersonNameField, UserSchema } from "./schema";

const UpdateUser = z.object({
  name: PersonNameField("Your name as people see it, 1-150 characters"),
  email: z.email().max(254).openapi({
    description: "Your e-mail address, which you sign in with; kept in lower case (409 if another user has it)",
    example: "ada@example.com",
  }),
  // http(s) only: the avatar is shown beside the user's replies in the console and the visitor's widget, where a
  // `javascript:` or `data:` URL has no place (contacts' avatars follow the same rule).
  avatar: z.httpUrl().max(2048).nullable().optional().openapi({
    description:
      "http(s) URL of your picture, shown with the replies you send to visitors; null removes it, absent keeps it",
    example: "https://cdn.example.com/ada.png",
  }),
  company: z
    .string()
    .max(200)
    .nullable()
    .optional()
    .openapi({
      description:
        "Your company as you name it, at most 200 characters; it renames no organization. Null clears it, absent " +
        "keeps it",
      example: "Acme",
    }),
  invitationCode: InvitationCodeField("on your profile"),
});

const route = createRoute({
  method: "put",
  path: "/users/current/",
  tags: ["Accounts"],
  summary: "Update the current user's profile",
  request: jsonBody(UpdateUser),
  responses: { 200: json(UserSchema, "Updated user"), ...errorResponses(400, 409) },
});

export const registerUpdateCurrentUser = (r: Router) =>
  r.openapi(route, async (c) => {
    const body = c.req.valid("json");
    return c.json(await updateProfile(c.var.db, c.var.principal.userId, body), 200);
  });
