import { ms } from "../../lib/time";
import { BUILT_IN_PARSER, type FileRow } from "../knowledge-files";

type IdName = { id: string; name: string };

export interface KnowledgeBaseFileRecord {
  id: string;
  filename: string;
  /** Absolute download URL (needs an API key). */
  file: string;
  fileType: string;
  knowledgeBase: IdName;
  size: number;
  status: FileRow["status"];
  parser: { id: string; name: string; provider: string; isTimestampSttProvider: boolean } | null;
  labels: IdName[];
  rawUserDefineMetadata: Record<string, unknown>;
  speakerLabels: Record<string, unknown>[];
  vectorStorageSize: number;
  chunksCount: number;
  waitingTime: number | null;
  processingTime: number | null;
  processingTimeDetails: Record<string, unknown>;
  previewUrl: string | null;
  createdAt: string;
}

const seconds = (from: number | null, to: number | null) =>
  from === null ? null : Math.max(0, ((to ?? Date.now()) - from) / 1000);

/** `origin` is the service's own (`https://host`), for the absolute download URL. */
export function fileRecord(
  origin: string,
  row: FileRow,
  knowledgeBase: IdName,
  labels: IdName[],
): KnowledgeBaseFileRecord {
  return {
    id: row.id,
    filename: row.filename,
    file: `${origin}/api/v1/knowledge-bases/${row.knowledgeBaseId}/files/${row.id}/download/`,
    fileType: row.fileType,
    knowledgeBase,
    size: row.size,
    status: row.status,
    parser: BUILT_IN_PARSER,
    labels,
    rawUserDefineMetadata: row.rawUserDefineMetadata,
    speakerLabels: [],
    vectorStorageSize: row.vectorStorageSize,
    chunksCount: row.chunksCount,
    waitingTime: seconds(row.queuedAt, row.startedAt),
    processingTime: seconds(row.startedAt, row.finishedAt),
    processingTimeDetails: row.processingTimeDetails,
    previewUrl: null,
    createdAt: ms(row.createdAt)!,
  };
}
