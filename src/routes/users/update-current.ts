import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../lib/openapi";
import { updateProfile } from "../../services/users";
import { UpdateUser } from "../../services/records/users";
import { UserSchema } from "./schema";

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
