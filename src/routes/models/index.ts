import type { Router } from "../../lib/openapi";
import { registerCreateModel } from "./create";
import { registerDeleteModel } from "./delete";
import { registerGetModel } from "./get";
import { MODEL_KIND_ROUTES } from "./kinds";
import { registerListModels } from "./list";
import { registerUpdateModel } from "./update";
import { registerTestModelConnection } from "./test-connection";

/** The same six endpoints for each kind: large language, embedding and reranker models. */
export function registerModelRoutes(r: Router) {
  for (const k of MODEL_KIND_ROUTES) {
    registerListModels(r, k);
    registerCreateModel(r, k);
    registerGetModel(r, k);
    registerUpdateModel(r, k);
    registerDeleteModel(r, k);
    registerTestModelConnection(r, k);
  }
}
