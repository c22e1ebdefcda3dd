import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { PERMISSIONS } from "../../services/permissions";
import { can, currentAccess } from "../../services/access";

const PermissionSchema = z
  .object({
    id: z.string().openapi({ description: "Stable id, used in group `permissions`", example: PERMISSIONS[0].id }),
    name: z.string().openapi({ description: "What the permission allows, for people", example: PERMISSIONS[0].name }),
    codename: z.string().openapi({
      description: "The permission's code (`x.view`, `x.manage`); `x.manage` implies `x.view`",
      example: PERMISSIONS[0].codename,
    }),
    granted: z
      .boolean()
      .openapi({ description: "Whether the current user holds it in the current organization", example: true }),
  })
  .openapi("Permission");

const route = createRoute({
  method: "get",
  path: "/permissions/",
  tags: ["Roles and permissions"],
  summary: "The permission catalogue, marked with what the current user holds",
  description: "The current organization is `X-Organization-Id`, else the key's organization.",
  responses: { 200: json(z.array(PermissionSchema), "All permissions"), ...errorResponses(403, 404) },
});

export const registerListPermissions = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await currentAccess(c);
    return c.json(
      PERMISSIONS.map((p) => ({ ...p, granted: can(access, p.codename) })),
      200,
    );
  });
