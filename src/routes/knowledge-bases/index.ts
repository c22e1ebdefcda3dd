import type { Router } from "../../lib/openapi";
import { registerCreateKnowledgeBase } from "./create";
import { registerListKnowledgeBases } from "./list";
import { registerGetKnowledgeBase } from "./get";
import { registerUpdateKnowledgeBase } from "./update";
import { registerDeleteKnowledgeBase } from "./delete";
import { registerLabelRoutes } from "./labels";
import { registerFaqRoutes } from "./faqs";
import { registerFileRoutes } from "./files";
import { registerSearchKnowledgeBase } from "./search";

export function registerKnowledgeBaseRoutes(r: Router) {
  registerListKnowledgeBases(r);
  registerCreateKnowledgeBase(r);
  registerGetKnowledgeBase(r);
  registerUpdateKnowledgeBase(r);
  registerDeleteKnowledgeBase(r);
  registerLabelRoutes(r);
  registerFaqRoutes(r);
  registerFileRoutes(r);
  registerSearchKnowledgeBase(r);
}
