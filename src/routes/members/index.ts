import type { Router } from "../../lib/openapi";
import { registerCreateMember } from "./create";
import { registerListMembers } from "./list";
import { registerGetCurrentMember } from "./get-current";
import { registerExportMembers } from "./export";
import { registerExportMemberTemplate } from "./export-template";
import { registerMemberMetadataTemplate } from "./metadata-template";
import { registerGetMember } from "./get";
import { registerDeleteMember } from "./delete";
import { registerUpdateMemberGroups } from "./update-groups";
import { registerMemberAvailability } from "./availability";
import { registerUpdateMember } from "./update";

export function registerMemberRoutes(r: Router) {
  registerCreateMember(r);
  registerListMembers(r);
  // Fixed paths before `/members/{id}/`, so that "current" or "export" is never read as an id.
  registerGetCurrentMember(r);
  registerMemberAvailability(r);
  registerExportMembers(r);
  registerExportMemberTemplate(r);
  registerMemberMetadataTemplate(r);
  registerGetMember(r);
  registerDeleteMember(r);
  registerUpdateMemberGroups(r);
  registerUpdateMember(r);
}
