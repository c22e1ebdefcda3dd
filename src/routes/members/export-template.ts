import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses } from "../../lib/openapi";
import { orgAccess, requirePermission } from "../../services/access";
import { memberTemplateHeader } from "../../services/member-sheets";
import { OrganizationParams } from "./schema";
import { xlsxDownload, xlsxResponse } from "../../lib/xlsx";

const route = createRoute({
  method: "get",
  path: "/organizations/{organizationPk}/members/export-template/",
  tags: ["Members"],
  summary: "Download the spreadsheet template for a bulk member import (.xlsx)",
  description:
    "Needs `member.manage`. Only a header row: `email`, `name`, `groups`, then each custom metadata key in " +
    "use in the organization.",
  request: { params: OrganizationParams },
  responses: {
    200: xlsxResponse("The template, as an attachment `members-template.xlsx`"),
    ...errorResponses(403, 404),
  },
});

export const registerExportMemberTemplate = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await orgAccess(c, c.req.valid("param").organizationPk);
    requirePermission(access, "member.manage");
    return xlsxDownload(await memberTemplateHeader(c.var.db, access.organizationId), [], "members-template.xlsx");
  });
