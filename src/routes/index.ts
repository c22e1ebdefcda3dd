import { lazy } from "../lib/lazy";
import type { Router } from "../lib/openapi";

type Register = (r: Router) => void;

/**
 * Every resource of the API, in registration order; each is mounted under both /api/v1 and /api.
 * `segments` are the first path segments its routes use (test/conventions/route-groups.test.ts checks
 * them). A group's module, and with it its zod schemas, is imported on the first request that needs
 * it: building every schema at startup cost most of the cold start (docs/decisions.md, "Cold start").
 */
export const ROUTE_GROUPS: { segments: string[]; load: () => Promise<Register> }[] = [
  { segments: ["auth"], load: async () => (await import("./auth")).registerAuthRoutes },
  { segments: ["auth"], load: async () => (await import("./sessions")).registerSessionRoutes },
  { segments: ["users"], load: async () => (await import("./users")).registerUserRoutes },
  { segments: ["api-keys"], load: async () => (await import("./api-keys")).registerApiKeyRoutes },
  { segments: ["permissions"], load: async () => (await import("./permissions")).registerPermissionRoutes },
  { segments: ["organizations"], load: async () => (await import("./organizations")).registerOrganizationRoutes },
  { segments: ["organizations"], load: async () => (await import("./members")).registerMemberRoutes },
  { segments: ["organizations"], load: async () => (await import("./groups")).registerGroupRoutes },
  {
    segments: ["large-language-models", "embedding-models", "reranker-models"],
    load: async () => (await import("./models")).registerModelRoutes,
  },
  { segments: ["inboxes"], load: async () => (await import("./inboxes")).registerInboxRoutes },
  { segments: ["web-chats"], load: async () => (await import("./web-chats")).registerWebChatRoutes },
  { segments: ["files"], load: async () => (await import("./files")).registerFileRoutes },
  { segments: ["chatbots"], load: async () => (await import("./chatbots")).registerChatbotRoutes },
  { segments: ["contacts"], load: async () => (await import("./contacts")).registerContactRoutes },
  {
    segments: ["conversations", "organizations"],
    load: async () => (await import("./conversations")).registerConversationRoutes,
  },
  { segments: ["labels", "conversations"], load: async () => (await import("./labels")).registerLabelRoutes },
  { segments: ["messages"], load: async () => (await import("./messages")).registerMessageRoutes },
  { segments: ["chat"], load: async () => (await import("./chat-completions")).registerChatCompletionRoutes },
  { segments: ["chatbots"], load: async () => (await import("./completions")).registerCompletionRoutes },
  { segments: ["inboxes", "chatbots"], load: async () => (await import("./webhooks")).registerWebhookRoutes },
  { segments: ["knowledge-bases"], load: async () => (await import("./knowledge-bases")).registerKnowledgeBaseRoutes },
  { segments: ["parsers"], load: async () => (await import("./parsers")).registerParserRoutes },
  { segments: ["chatbot-text-nodes"], load: async () => (await import("./text-nodes")).registerTextNodeRoutes },
  {
    segments: ["allowed-file-specs", "upload-presigned-url", "uploads"],
    load: async () => (await import("./uploads")).registerUploadRoutes,
  },
  {
    segments: ["attachments-upload", "attachments", "conversations"],
    load: async () => (await import("./attachments")).registerAttachmentRoutes,
  },
  // Records first: their `/tools/{toolPk}/tool-execution-records/` paths sit below `/tools/`.
  {
    segments: ["tool-execution-records", "tools"],
    load: async () => (await import("./tool-execution-records")).registerToolExecutionRecordRoutes,
  },
  { segments: ["tools"], load: async () => (await import("./tools")).registerToolRoutes },
  { segments: ["connectors"], load: async () => (await import("./connectors")).registerConnectorRoutes },
  { segments: ["mcp"], load: async () => (await import("./mcp")).registerMcpRoutes },
  {
    segments: ["built-in-workflows"],
    load: async () => (await import("./built-in-workflows")).registerBuiltInWorkflowRoutes,
  },
  { segments: ["web-chats"], load: async () => (await import("./widget")).registerWidgetRoutes },
  { segments: ["chatbots"], load: async () => (await import("./statistics")).registerStatisticsRoutes },
  { segments: ["chatbots"], load: async () => (await import("./chatbot-records")).registerChatbotRecordRoutes },
  { segments: ["organizations"], load: async () => (await import("./usage-statistics")).registerUsageStatisticsRoutes },
  { segments: ["organizations"], load: async () => (await import("./human-statistics")).registerHumanStatisticsRoutes },
  { segments: ["web-chats"], load: async () => (await import("./batch-qas")).registerBatchQaRoutes },
  { segments: ["skills"], load: async () => (await import("./skills")).registerSkillRoutes },
  { segments: ["sql-databases"], load: async () => (await import("./sql-databases")).registerSqlDatabaseRoutes },
  {
    segments: ["canned-responses"],
    load: async () => (await import("./canned-responses")).registerCannedResponseRoutes,
  },
];
// Each group's module is imported once per isolate (src/lib/lazy.ts).
for (const group of ROUTE_GROUPS) group.load = lazy(group.load);

/**
 * What registers the routes under one first segment (every route when `segment` is undefined),
 * in the order above, so that overlapping patterns match as they always did; null for a segment
 * no route uses.
 */
export async function routesFor(segment?: string): Promise<Register | null> {
  const groups = segment === undefined ? ROUTE_GROUPS : ROUTE_GROUPS.filter((g) => g.segments.includes(segment));
  if (!groups.length) return null;
  const registers = await Promise.all(groups.map((g) => g.load()));
  return (r) =>
    registers.forEach((register) => {
      register(r);
    });
}
