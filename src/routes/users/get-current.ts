import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { userRecord } from "../../services/records/users";
import { UserSchema } from "./schema";

const route = createRoute({
  method: "get",
  path: "/users/current/",
  tags: ["Accounts"],
  summary: "The user the API key acts as",
  responses: { 200: json(UserSchema, "Current user"), ...errorResponses() },
});

export const registerGetCurrentUser = (r: Router) =>
  r.openapi(route, async (c) => {
    return c.json(userRecord(c.var.principal.user), 200);
  });
