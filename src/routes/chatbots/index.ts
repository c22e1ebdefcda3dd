import type { Router } from "../../lib/openapi";
import { registerCreateChatbot } from "./create";
import { registerListChatbots } from "./list";
import { registerGetChatbot } from "./get";
import { registerUpdateChatbot } from "./update";
import { registerDeleteChatbot } from "./delete";
import { registerEnableEvaluation } from "./enable-evaluation";
import { registerListChatbotKnowledgeFiles } from "./knowledge-bases-files";
import { registerListChatbotKnowledgeFaqs } from "./knowledge-bases-faqs";
import { registerSearchChatbot } from "./search";

export function registerChatbotRoutes(r: Router) {
  registerListChatbots(r);
  registerCreateChatbot(r);
  registerGetChatbot(r);
  registerUpdateChatbot(r);
  registerDeleteChatbot(r);
  registerEnableEvaluation(r);
  registerListChatbotKnowledgeFiles(r);
  registerListChatbotKnowledgeFaqs(r);
  registerSearchChatbot(r);
}
