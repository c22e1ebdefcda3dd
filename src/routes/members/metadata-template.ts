import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { orgAccess, requirePermission } from "../../services/access";
import { metadataFields } from "../../services/members";
import { OrganizationParams } from "./schema";

const MetadataTemplate = z
  .object({
    fields: z
      .array(
        z.object({
          key: z.string().openapi({ description: "Key in member `metadata`", example: "employeeId" }),
          label: z.string().openapi({ description: "Human label derived from the key", example: "Employee id" }),
          type: z
            .enum(["string", "number", "boolean", "array", "object"])
            .openapi({ description: "JSON type of the values", example: "string" }),
        }),
      )
      .openapi({
        description:
          "Each key of the members' `metadata` in use, once, in order of first appearance (oldest member first)",
      }),
  })
  .openapi("MemberMetadataTemplate");

const route = createRoute({
  method: "get",
  path: "/organizations/{organizationPk}/members/metadata-template/",
  tags: ["Members"],
  summary: "The custom member metadata fields in use",
  description:
    "Needs `member.view`. There is no separate field definition: the template is derived from the members' " +
    "`metadata`. " +
    "Every key found is listed once, in order of first appearance (oldest member first), with a label made " +
    "from the key " +
    "(`cost_center` -> `Cost center`) and the JSON type of its values; a key whose values have several types, " +
    "or are all null, is `string`.",
  request: { params: OrganizationParams },
  responses: { 200: json(MetadataTemplate, "Fields of the template"), ...errorResponses(403, 404) },
});

export const registerMemberMetadataTemplate = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await orgAccess(c, c.req.valid("param").organizationPk);
    requirePermission(access, "member.view");
    return c.json({ fields: await metadataFields(c.var.db, access.organizationId) }, 200);
  });
