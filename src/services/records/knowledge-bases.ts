import { ms } from "../../lib/time";
import type { KnowledgeBaseRow, KnowledgeBaseView } from "../knowledge-bases";
import type { CredentialName } from "../vector-database";

type IdName = { id: string; name: string };

export interface KnowledgeBaseRecord {
  id: string;
  name: string;
  description: string;
  organization: string;
  createdBy: IdName;
  embeddingModel: IdName;
  rerankerModel: IdName;
  numberOfRetrievedChunks: number;
  sentenceWindowSize: number;
  enableHyde: boolean;
  similarityCutoff: number;
  enableRerank: boolean;
  enableRrf: boolean;
  vectorDatabaseType: KnowledgeBaseRow["vectorDatabaseType"];
  vectorDatabaseUrl: string | null;
  /** Which write-only store credentials are set; their values are never returned. */
  storedCredentials: CredentialName[];
  labels: IdName[];
  groups: IdName[];
  chatbots: IdName[];
  filesCount: number;
  chunksCount: number;
  vectorStorageSize: number;
  canUpdate: boolean;
  canDelete: boolean;
  createdAt: string;
  updatedAt: string;
}

export const knowledgeBaseRecord = (
  v: KnowledgeBaseView,
  storedCredentials: CredentialName[],
): KnowledgeBaseRecord => ({
  id: v.row.id,
  name: v.row.name,
  description: v.row.description,
  organization: v.row.organizationId,
  createdBy: v.createdBy,
  embeddingModel: v.embeddingModel,
  rerankerModel: v.rerankerModel,
  numberOfRetrievedChunks: v.row.numberOfRetrievedChunks,
  sentenceWindowSize: v.row.sentenceWindowSize,
  enableHyde: v.row.enableHyde,
  similarityCutoff: v.row.similarityCutoff,
  enableRerank: v.row.enableRerank,
  enableRrf: v.row.enableRrf ?? true,
  vectorDatabaseType: v.row.vectorDatabaseType,
  vectorDatabaseUrl: v.row.vectorDatabaseUrl,
  storedCredentials,
  labels: v.labels,
  groups: v.groups,
  chatbots: v.chatbots,
  filesCount: v.filesCount,
  chunksCount: v.chunksCount,
  vectorStorageSize: v.vectorStorageSize,
  canUpdate: v.canManage,
  canDelete: v.canManage,
  createdAt: ms(v.row.createdAt)!,
  updatedAt: ms(v.row.updatedAt)!,
});
