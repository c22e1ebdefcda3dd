import { createRoute, z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import type { Router } from "../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../lib/openapi";
import { users } from "../../db/schema";
import { badRequest } from "../../lib/errors";
import { hashPassword, verifyPassword } from "../../lib/crypto";
import { password, samePasswords } from "./schema";

const ChangePassword = z
  .object({
    oldPassword: z.string().min(1).openapi({ example: "correct horse battery" }),
    newPassword1: password("New password"),
    newPassword2: password("New password again"),
  })
  .superRefine(samePasswords("newPassword1", "newPassword2"));

const route = createRoute({
  method: "post",
  path: "/auth/password/change/",
  tags: ["Accounts"],
  summary: "Change the current user's password",
  request: jsonBody(ChangePassword),
  responses: {
    200: json(z.object({ detail: z.string().openapi({ example: "New password has been saved." }) }), "Changed"),
    ...errorResponses(400),
  },
});

export const registerChangePassword = (r: Router) =>
  r.openapi(route, async (c) => {
    const body = c.req.valid("json");
    const db = c.var.db;
    const [user] = await db.select().from(users).where(eq(users.id, c.var.principal.userId));
    // A user created by bootstrap has no password yet and may set one without an old one.
    if (user.passwordHash && !(await verifyPassword(body.oldPassword, user.passwordHash))) {
      throw badRequest("Invalid request. oldPassword: Your old password was entered incorrectly.", {
        oldPassword: ["Your old password was entered incorrectly."],
      });
    }
    await db
      .update(users)
      .set({ passwordHash: await hashPassword(body.newPassword1) })
      .where(eq(users.id, user.id));
    return c.json({ detail: "New password has been saved." }, 200);
  });
