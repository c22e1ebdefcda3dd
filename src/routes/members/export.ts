import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses } from "../../lib/openapi";
import { orgAccess, requirePermission } from "../../services/access";
import { memberFilters } from "../../services/members";
import { membersSheet } from "../../services/member-sheets";
import { MemberFilterQuery, OrganizationParams } from "./schema";
import { xlsxDownload, xlsxResponse } from "../../lib/xlsx";

const route = createRoute({
  method: "get",
  path: "/organizations/{organizationPk}/members/export/",
  tags: ["Members"],
  summary: "Download the members as a spreadsheet (.xlsx)",
  description:
    "Needs `member.view`. One row per member, oldest first: Name, Email, Groups (comma-separated), Owner, " +
    "Joined (a date cell), " +
    "then one column per custom metadata key (see `metadata-template`). Takes the list's filters.",
  request: { params: OrganizationParams, query: MemberFilterQuery },
  responses: {
    200: xlsxResponse("The spreadsheet, as an attachment `members-<YYYY-MM-DD>.xlsx`"),
    ...errorResponses(400, 403, 404),
  },
});

export const registerExportMembers = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await orgAccess(c, c.req.valid("param").organizationPk);
    requirePermission(access, "member.view");
    const filters = memberFilters(c.req.valid("query"));
    const { header, rows, filename } = await membersSheet(c.var.db, access.organizationId, filters);
    return xlsxDownload(header, rows, filename);
  });
