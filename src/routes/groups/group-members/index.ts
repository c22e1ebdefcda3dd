import type { Router } from "../../../lib/openapi";
import { registerBulkCreateGroupMembers } from "./bulk-create";
import { registerListGroupMembers } from "./list";
import { registerGetGroupMember } from "./get";
import { registerDeleteGroupMember } from "./delete";

export function registerGroupMemberRoutes(r: Router) {
  registerBulkCreateGroupMembers(r);
  registerListGroupMembers(r);
  registerGetGroupMember(r);
  registerDeleteGroupMember(r);
}
