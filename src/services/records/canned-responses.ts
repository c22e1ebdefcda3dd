import type { cannedResponses } from "../../db/schema";
import { ms } from "../../lib/time";

export interface CannedResponseRecord {
  id: string;
  shortCode: string;
  content: string;
  createdAt: string;
  updatedAt: string;
}

export const cannedResponseRecord = (row: typeof cannedResponses.$inferSelect): CannedResponseRecord => ({
  id: row.id,
  shortCode: row.shortCode,
  content: row.content,
  createdAt: ms(row.createdAt)!,
  updatedAt: ms(row.updatedAt)!,
});
