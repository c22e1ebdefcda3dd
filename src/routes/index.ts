import type { Router } from "../lib/openapi";
import { registerAuthRoutes } from "./auth";
import { registerUserRoutes } from "./users";
import { registerApiKeyRoutes } from "./api-keys";
import { registerPermissionRoutes } from "./permissions";
import { registerOrganizationRoutes } from "./organizations";
import { registerMemberRoutes } from "./members";
import { registerGroupRoutes } from "./groups";
import { registerModelRoutes } from "./models";
import { registerInboxRoutes } from "./inboxes";
import { registerWebChatRoutes } from "./web-chats";
import { registerFileRoutes } from "./files";
import { registerChatbotRoutes } from "./chatbots";
import { registerContactRoutes } from "./contacts";
import { registerConversationRoutes } from "./conversations";
import { registerMessageRoutes } from "./messages";
import { registerChatCompletionRoutes } from "./chat-completions";
import { registerCompletionRoutes } from "./completions";
import { registerWebhookRoutes } from "./webhooks";
import { registerKnowledgeBaseRoutes } from "./knowledge-bases";
import { registerParserRoutes } from "./parsers";
import { registerTextNodeRoutes } from "./text-nodes";

/** Every resource of the API; each is mounted under both /api/v1 and /api. */
export function registerRoutes(r: Router) {
  registerAuthRoutes(r);
  registerUserRoutes(r);
  registerApiKeyRoutes(r);
  registerPermissionRoutes(r);
  registerOrganizationRoutes(r);
  registerMemberRoutes(r);
  registerGroupRoutes(r);
  registerModelRoutes(r);
  registerInboxRoutes(r);
  registerWebChatRoutes(r);
  registerFileRoutes(r);
  registerChatbotRoutes(r);
  registerContactRoutes(r);
  registerConversationRoutes(r);
  registerMessageRoutes(r);
  registerChatCompletionRoutes(r);
  registerCompletionRoutes(r);
  registerWebhookRoutes(r);
  registerKnowledgeBaseRoutes(r);
  registerParserRoutes(r);
  registerTextNodeRoutes(r);
}
