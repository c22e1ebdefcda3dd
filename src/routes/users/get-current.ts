import { createRoute } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { users } from "../../db/schema";
import { unauthenticated } from "../../lib/errors";
import { UserSchema, userRecord } from "./schema";

const route = createRoute({
  method: "get",
  path: "/users/current/",
  tags: ["Accounts"],
  summary: "The user the API key acts as",
  responses: { 200: json(UserSchema, "Current user"), ...errorResponses() },
});

export const registerGetCurrentUser = (r: Router) =>
  r.openapi(route, async (c) => {
    const [user] = await c.var.db.select().from(users).where(eq(users.id, c.var.principal.userId));
    if (!user) throw unauthenticated();
    return c.json(userRecord(user), 200);
  });
