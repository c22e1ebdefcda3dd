import type { Router } from "../../lib/openapi";
import { registerSignIn } from "./create";
import { registerGetCurrentSession } from "./get-current";
import { registerListSessions } from "./list";
import { registerSignOut } from "./sign-out";
import { registerRevokeSession } from "./revoke";

/** The operator console's sign-in (CONTRACT section 16). `current` before `{id}`, which it would otherwise match. */
export function registerSessionRoutes(r: Router) {
  registerSignIn(r);
  registerGetCurrentSession(r);
  registerListSessions(r);
  registerSignOut(r);
  registerRevokeSession(r);
}
