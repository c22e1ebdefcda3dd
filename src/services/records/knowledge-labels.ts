import { ms } from "../../lib/time";
import type { KnowledgeBaseRow } from "../knowledge-bases";
import type { LabelRow } from "../knowledge-labels";

export interface LabelRecord {
  id: string;
  name: string;
  knowledgeBase: { id: string; name: string };
  filesCount: number;
  faqsCount: number;
  createdAt: string;
  updatedAt: string;
}

export const labelRecord = (kb: KnowledgeBaseRow, row: LabelRow): LabelRecord => ({
  id: row.id,
  name: row.name,
  knowledgeBase: { id: kb.id, name: kb.name },
  filesCount: Number(row.filesCount),
  faqsCount: Number(row.faqsCount),
  createdAt: ms(row.createdAt)!,
  updatedAt: ms(row.updatedAt)!,
});
