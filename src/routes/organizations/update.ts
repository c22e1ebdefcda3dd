import { createRoute, type z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json } from "../../lib/openapi";
import { forbidden } from "../../lib/errors";
import { orgAccess, requirePermission } from "../../services/access";
import { MULTIPART_MAX_BYTES } from "../../services/organization-logos";
import { updateOrganization } from "../../services/organizations";
import { OrganizationSchema } from "../../services/records/organizations";
import { acceptOnly } from "../../middleware/content-type";
import { OrganizationStaffWrite, OrganizationWrite, logoPart } from "./schema";

const JsonPut = OrganizationWrite.extend(OrganizationStaffWrite.shape);
const FormPut = OrganizationWrite.pick({
  name: true,
  themePrimaryColor: true,
  companyName: true,
  taxId: true,
  contactPhone: true,
  invitationCode: true,
}).extend({
  compactLogo: logoPart("Compact logo"),
  fullLogo: logoPart("Full logo"),
});
const STAFF_FIELDS = Object.keys(OrganizationStaffWrite.shape);

const description =
  "Needs `organization.manage`. Plan, feature flags, fees and approval status are for platform staff only " +
  "(403 otherwise); " +
  "staff may set them on any organization they are a member of. Logos are URLs in JSON, or image files in the " +
  "multipart form " +
  "(PNG, JPEG or GIF, at most 5 MiB each; when the operator configured plans, only on a plan with " +
  "`logoUploads`, 403 otherwise), stored and served under `/api/v1/files/public/`.";

const routeFor = (method: "put" | "patch", jsonSchema: z.ZodType, formSchema: z.ZodType) =>
  createRoute({
    method,
    path: "/organizations/{id}/",
    tags: ["Organizations"],
    summary: method === "put" ? "Update an organization (name required)" : "Partially update an organization",
    description,
    middleware: [
      acceptOnly(["json", "multipart"], { required: true, maxMultipartBytes: MULTIPART_MAX_BYTES }),
    ] as const,
    request: {
      params: IdParams,
      body: {
        required: false,
        description: "JSON (snake_case keys accepted), or multipart/form-data with logo files",
        content: { "application/json": { schema: jsonSchema }, "multipart/form-data": { schema: formSchema } },
      },
    },
    responses: { 200: json(OrganizationSchema, "Updated organization"), ...errorResponses(400, 403, 404, 413, 415) },
  });

const putRoute = routeFor("put", JsonPut, FormPut);
const patchRoute = routeFor("patch", JsonPut.partial(), FormPut.partial());

export const registerUpdateOrganization = (r: Router) => {
  for (const route of [putRoute, patchRoute]) {
    r.openapi(route, async (c) => {
      const multipart = /^multipart\/form-data/i.test(c.req.header("Content-Type") ?? "");
      const body = (multipart ? c.req.valid("form") : c.req.valid("json")) as Record<string, unknown>;
      const access = await orgAccess(c, c.req.valid("param").id);
      const { isStaff } = c.var.principal;
      // Staff may change any organization they are a member of; plan, features and fees are theirs alone.
      if (!isStaff) requirePermission(access, "organization.manage");
      const staffFields = STAFF_FIELDS.filter((k) => body[k] !== undefined);
      if (staffFields.length && !isStaff) throw forbidden(`Only platform staff can change ${staffFields.join(", ")}.`);
      const logos = multipart ? { origin: new URL(c.req.url).origin } : null;
      return c.json(await updateOrganization(c.env, c.var.db, access.organizationId, body, logos), 200);
    });
  }
};
