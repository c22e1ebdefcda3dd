import { createRoute, type z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { eq } from "drizzle-orm";
import type { AppEnv } from "../../env";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json } from "../../lib/openapi";
import { organizations } from "../../db/schema";
import { fieldError, forbidden, notFound } from "../../lib/errors";
import { orgAccess, requirePermission } from "../../services/access";
import { getOrganizationRecord } from "../../services/organizations";
import { planOf, planSettings } from "../../services/plans";
import { fileSpecs } from "../../services/uploads/file-specs";
import { acceptOnly } from "../../middleware/content-type";
import { LOGO_FIELDS, MULTIPART_MAX_BYTES, logoPart, readLogoPart, storeLogo } from "./logos";
import { OrganizationSchema, OrganizationStaffWrite, OrganizationWrite } from "./schema";

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
  "Requires `organization.manage`. Plan, feature flags, fees and approval status are for platform staff only (403 otherwise); " +
  "staff may set them on any organization they are a member of. Logos are URLs in JSON, or image files in the multipart form " +
  "(PNG, JPEG or GIF, at most 5 MiB each; when the operator configured plans, only on a plan with `logoUploads`, 403 otherwise), stored and served under `/api/v1/files/public/`.";

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

type Changes = Partial<typeof organizations.$inferInsert>;

async function update(c: Context<AppEnv>, id: string, body: Record<string, unknown>, multipart: boolean) {
  const access = await orgAccess(c, id);
  const { isStaff } = c.var.principal;
  if (!isStaff) requirePermission(access, "organization.manage");
  const staffFields = STAFF_FIELDS.filter((k) => body[k] !== undefined);
  if (staffFields.length && !isStaff) throw forbidden(`Only platform staff can change ${staffFields.join(", ")}.`);
  const db = c.var.db;
  const plans = planSettings(c.env);
  if (typeof body.planId === "string" && !plans.plans.has(body.planId)) {
    throw fieldError(
      "planId",
      `Unknown plan "${body.planId}"; the configured plans are: ${[...plans.plans.keys()].join(", ")}.`,
    );
  }
  const [org] = await db
    .select({ planId: organizations.planId })
    .from(organizations)
    .where(eq(organizations.id, access.organizationId));
  if (!org) throw notFound();
  const changes: Record<string, unknown> = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
  if (multipart) {
    const plan = planOf(plans, org.planId);
    if (!plan.logoUploads) {
      throw forbidden(`The ${plan.planName} plan does not include logo uploads; send logo URLs as JSON instead.`);
    }
    // Every part is checked before anything is stored.
    const specs = fileSpecs(c.env).organization;
    const logos = LOGO_FIELDS.map(
      (field) =>
        [
          field,
          readLogoPart(field, body[field], specs[field === "compactLogo" ? "compact_logo" : "full_logo"]),
        ] as const,
    );
    for (const [field, value] of logos) {
      if (value instanceof File) changes[field] = await storeLogo(c, access.organizationId, value);
      else if (value !== undefined) changes[field] = value;
    }
  }
  if (Object.keys(changes).length)
    await db
      .update(organizations)
      .set(changes as Changes)
      .where(eq(organizations.id, access.organizationId));
  return (await getOrganizationRecord(db, access.organizationId, plans))!;
}

const isMultipart = (c: Context) => /^multipart\/form-data/i.test(c.req.header("Content-Type") ?? "");

export const registerUpdateOrganization = (r: Router) => {
  r.openapi(putRoute, async (c) => {
    const multipart = isMultipart(c);
    const body = multipart ? c.req.valid("form") : c.req.valid("json");
    return c.json(await update(c, c.req.valid("param").id, body as Record<string, unknown>, multipart), 200);
  });
  r.openapi(patchRoute, async (c) => {
    const multipart = isMultipart(c);
    const body = multipart ? c.req.valid("form") : c.req.valid("json");
    return c.json(await update(c, c.req.valid("param").id, body as Record<string, unknown>, multipart), 200);
  });
};
