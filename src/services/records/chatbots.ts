import { ms } from "../../lib/time";
import { maskDatabaseUrl, type ChatbotView } from "../chatbots/views";
import type { ChatbotRow } from "../chatbots/visibility";
import { handoffSettings, type HandoffSettings } from "../conversation/handoff";
export const DATABASE_TYPES = ["MySQL", "PostgreSQL", "MSSQL", "Oracle"] as const;
type IdName = { id: string; name: string };

/** The assistant record; `databaseUrl` with its password masked. */
export interface ChatbotRecord {
  id: string;
  name: string;
  organization: string | null;
  createdBy: IdName;
  largeLanguageModel: IdName;
  fallbackLargeLanguageModel: IdName | null;
  embeddingModel: IdName | null;
  rerankerModel: IdName | null;
  rag: string | null;
  builtInWorkflow: string | null;
  instructions: string;
  replyMode: ChatbotRow["replyMode"];
  template: string | null;
  unanswerableTemplate: string | null;
  totalWordsCount: number;
  outputMode: ChatbotRow["outputMode"];
  rawOutputFormat: Record<string, unknown> | null;
  databaseUrl: string | null;
  databaseType: (typeof DATABASE_TYPES)[number] | null;
  includeTables: Record<string, unknown> | null;
  agentMode: ChatbotRow["agentMode"];
  numberOfRetrievedChunks: number;
  enableEvaluation: boolean;
  enableInLineCitations: boolean;
  handoff: HandoffSettings;
  knowledgeBases: IdName[];
  toolkits: IdName[];
  tools: IdName[];
  skills: IdName[];
  groups: IdName[];
  defaultInbox: IdName | null;
  canUpdate: boolean;
  canDelete: boolean;
  createdAt: string;
  updatedAt: string;
}

export const chatbotRecord = (v: ChatbotView): ChatbotRecord => ({
  id: v.row.id,
  name: v.row.name,
  organization: v.row.organizationId,
  createdBy: v.createdBy,
  largeLanguageModel: v.largeLanguageModel,
  fallbackLargeLanguageModel: v.fallbackLargeLanguageModel,
  embeddingModel: v.embeddingModel,
  rerankerModel: v.rerankerModel,
  rag: v.row.ragId,
  builtInWorkflow: v.row.builtInWorkflowId,
  instructions: v.row.instructions,
  replyMode: v.row.replyMode,
  template: v.row.template,
  unanswerableTemplate: v.row.unanswerableTemplate,
  totalWordsCount: v.row.totalWordsCount,
  outputMode: v.row.outputMode,
  rawOutputFormat: v.row.rawOutputFormat,
  databaseUrl: maskDatabaseUrl(v.row.databaseUrl),
  databaseType: v.row.databaseType as ChatbotRecord["databaseType"],
  includeTables: v.row.includeTables,
  agentMode: v.row.agentMode,
  numberOfRetrievedChunks: v.row.numberOfRetrievedChunks,
  enableEvaluation: v.row.enableEvaluation,
  enableInLineCitations: v.row.enableInLineCitations,
  handoff: handoffSettings(v.row.handoff),
  knowledgeBases: v.knowledgeBases,
  toolkits: [],
  tools: v.tools,
  skills: v.skills,
  groups: v.groups,
  defaultInbox: v.defaultInbox,
  canUpdate: v.canManage,
  canDelete: v.canManage,
  createdAt: ms(v.row.createdAt)!,
  updatedAt: ms(v.row.updatedAt)!,
});
