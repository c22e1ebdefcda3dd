import type { Router } from "../../lib/openapi";
import { registerCreateOrganization } from "./create";
import { registerListOrganizations } from "./list";
import { registerGetOrganization } from "./get";
import { registerUpdateOrganization } from "./update";
import { registerDeleteOrganization } from "./delete";

export function registerOrganizationRoutes(r: Router) {
  registerCreateOrganization(r);
  registerListOrganizations(r);
  registerGetOrganization(r);
  registerUpdateOrganization(r);
  registerDeleteOrganization(r);
}
