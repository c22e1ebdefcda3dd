import type { Router } from "../../lib/openapi";
import { registerCreateApiKey } from "./create";
import { registerListApiKeys } from "./list";
import { registerRevokeApiKey } from "./revoke";

export function registerApiKeyRoutes(r: Router) {
  registerCreateApiKey(r);
  registerListApiKeys(r);
  registerRevokeApiKey(r);
}
