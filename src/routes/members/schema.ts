import { z } from "@hono/zod-openapi";
import { SearchParam, uuidParam } from "../../lib/openapi";
import { csvIds } from "../../lib/pagination";
import { MAX_IDS_PER_QUERY, MAX_SEARCH_TERMS } from "../../services/members";

const EXAMPLE_ID = "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d";

export const OrganizationParams = z.object({ organizationPk: uuidParam("organizationPk", "Organization id") });
export const MemberParams = OrganizationParams.extend({ id: uuidParam("id", "Member id") });

/** Filters shared by the member list and its spreadsheet export. */
export const MemberFilterQuery = z.object({
  query: SearchParam("Name or e-mail contains (case-insensitive)", "ada"),
  group: z.uuid().optional().openapi({ description: "Members of this group", example: EXAMPLE_ID }),
  ids: csvIds(`Comma-separated member ids (at most ${MAX_IDS_PER_QUERY})`),
  inbox: z.uuid().optional().openapi({
    description: "Members who can reach this inbox's assistant: owners and members of the assistant's groups",
    example: EXAMPLE_ID,
  }),
  search: SearchParam(
    `Every word (first ${MAX_SEARCH_TERMS}) matches the name, the e-mail or a metadata value`,
    "sales ada",
  ),
});
