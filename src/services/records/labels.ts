import { ms } from "../../lib/time";
import type { LabelRow } from "../labels";

export interface LabelRecord {
  id: string;
  name: string;
  color: string;
  description: string;
  createdAt: string;
  updatedAt: string;
}

export const labelRecord = (row: LabelRow): LabelRecord => ({
  id: row.id,
  name: row.name,
  color: row.color,
  description: row.description,
  createdAt: ms(row.createdAt)!,
  updatedAt: ms(row.updatedAt)!,
});
