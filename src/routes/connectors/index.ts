import type { Router } from "../../lib/openapi";
import { registerCreateConnector } from "./create";
import { registerListConnectors } from "./list";
import { registerGetConnector } from "./get";
import { registerUpdateConnector } from "./update";
import { registerDeleteConnector } from "./delete";
import { registerListAuthorizedMembers } from "./authorized-members";
import { registerRevokeAuthorizedMember } from "./authorized-member-delete";
import { registerConnectorCredentials } from "./credentials";

export function registerConnectorRoutes(r: Router) {
  registerListConnectors(r);
  registerCreateConnector(r);
  registerGetConnector(r);
  registerUpdateConnector(r);
  registerDeleteConnector(r);
  registerListAuthorizedMembers(r);
  registerRevokeAuthorizedMember(r);
  registerConnectorCredentials(r);
}
