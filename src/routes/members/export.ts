import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses } from "../../lib/openapi";
import { orgAccess, requirePermission } from "../../services/access";
import { listMembers, memberFilters, metadataFields } from "../../services/members";
import { MemberFilterQuery, OrganizationParams } from "./schema";
import { cellOf, xlsxDownload, xlsxResponse } from "../../lib/xlsx";

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
    const db = c.var.db;
    const [views, fields] = await Promise.all([
      listMembers(db, access.organizationId, memberFilters(c.req.valid("query"))),
      metadataFields(db, access.organizationId),
    ]);
    const header = ["Name", "Email", "Groups", "Owner", "Joined", ...fields.map((f) => f.key)];
    const rows = views.map(({ member, user, groups }) => [
      user.name,
      user.email,
      groups.map((g) => g.name).join(", ") || null,
      member.isOwner,
      { value: new Date(member.createdAt), type: Date, format: "yyyy-mm-dd" },
      ...fields.map((f) => cellOf(member.metadata?.[f.key])),
    ]);
    return xlsxDownload(header, rows, `members-${new Date().toISOString().slice(0, 10)}.xlsx`);
  });
