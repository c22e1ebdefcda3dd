import type { Router } from "../../lib/openapi";
import { registerListRegistry } from "./registry-list";
import { registerGetRegistryEntry } from "./registry-get";

export function registerMcpRoutes(r: Router) {
  registerListRegistry(r);
  registerGetRegistryEntry(r);
}
