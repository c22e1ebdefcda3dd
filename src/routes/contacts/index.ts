import type { Router } from "../../lib/openapi";
import { registerCreateContact } from "./create";
import { registerDeleteContact } from "./delete";
import { registerGetContact } from "./get";
import { registerListContacts } from "./list";
import { registerUpdateContact } from "./update";

export function registerContactRoutes(r: Router) {
  registerListContacts(r);
  registerCreateContact(r);
  registerGetContact(r);
  registerUpdateContact(r);
  registerDeleteContact(r);
}
