import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../lib/openapi";
import { changePassword } from "../../services/auth";
import { password, samePasswords } from "./schema";

const ChangePassword = z
  .object({
    oldPassword: z
      .string()
      .min(1)
      .openapi({
        description:
          "The current password (400 if wrong); a user who has none (such as the first administrator, created by " +
          "the bootstrap key without BOOTSTRAP_PASSWORD) may send any text",
        example: "correct horse battery",
      }),
    newPassword1: password("New password"),
    newPassword2: password("New password again"),
  })
  .superRefine(samePasswords("newPassword1", "newPassword2"));

const route = createRoute({
  method: "post",
  path: "/auth/password/change/",
  tags: ["Accounts"],
  summary: "Change the current user's password",
  description:
    "Ends the user's other console sessions (all of them when the request comes with an API key); API keys keep " +
    "working.",
  request: jsonBody(ChangePassword),
  responses: {
    200: json(
      z.object({
        detail: z.string().openapi({
          description: 'A confirmation for people: always "New password has been saved."',
          example: "New password has been saved.",
        }),
      }),
      "Changed",
    ),
    ...errorResponses(400),
  },
});

export const registerChangePassword = (r: Router) =>
  r.openapi(route, async (c) => {
    const body = c.req.valid("json");
    const { userId, session } = c.var.principal;
    await changePassword(c.var.db, userId, body.oldPassword, body.newPassword1, session?.id ?? null);
    return c.json({ detail: "New password has been saved." }, 200);
  });
