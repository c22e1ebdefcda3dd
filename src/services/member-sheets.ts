// The members as spreadsheets: the list's export and the empty template to fill in, each with a column per custom
// metadata key in use (metadataFields).
import type { Row } from "write-excel-file/node";
import type { Db } from "../env";
import { cellOf } from "../lib/xlsx";
import { listMembers, type MemberFilters, metadataFields } from "./members";

/**
 * The members matching `filters`, oldest first, as the spreadsheet's rows (`xlsxDownload`'s `header` and `rows`):
 * name, e-mail, groups, owner, joined (a date cell), then the metadata keys; named for the day (`now`, UTC).
 */
export async function membersSheet(
  db: Db,
  organizationId: string,
  filters: MemberFilters,
  now = Date.now(),
): Promise<{ header: string[]; rows: Row[]; filename: string }> {
  const [views, fields] = await Promise.all([
    listMembers(db, organizationId, filters),
    metadataFields(db, organizationId),
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
  return { header, rows, filename: `members-${new Date(now).toISOString().slice(0, 10)}.xlsx` };
}

/** The header of the import template: e-mail, name and groups, then the metadata keys in use. */
export async function memberTemplateHeader(db: Db, organizationId: string): Promise<string[]> {
  const fields = await metadataFields(db, organizationId);
  return ["email", "name", "groups", ...fields.map((f) => f.key)];
}
