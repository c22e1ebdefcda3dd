import { ms } from "../../lib/time";
import type { AttachedTool, SkillView } from "../skills/views";

type IdName = { id: string; name: string };

/** A skill in lists: resources as paths. */
export interface SkillListRecord {
  id: string;
  name: string;
  description: string;
  whenToUse: string;
  source: "upload" | "manual";
  attachedTools: AttachedTool[];
  resources: string[];
  groups: IdName[];
  createdBy: IdName | null;
  createdAt: string;
  updatedAt: string;
  lastUsedAt: string | null;
  canUpdate: boolean;
  canDelete: boolean;
}

export interface SkillResourceRecord {
  id: string;
  path: string;
  filePath: string;
  fileSize: number;
  mimeType: string;
  createdAt: string;
}

/** A skill in detail: instructions, the package, and resources as objects. */
export interface SkillRecord extends Omit<SkillListRecord, "resources"> {
  instructions: string;
  skillPackagePath: string | null;
  skillPackageName: string | null;
  skillPackageSize: number | null;
  skillPackageUploadedAt: string | null;
  resources: SkillResourceRecord[];
}

const common = (v: SkillView) => ({
  id: v.row.id,
  name: v.row.name,
  description: v.row.description,
  whenToUse: v.row.whenToUse,
  source: v.row.source,
  attachedTools: v.attachedTools,
  groups: v.groups,
  createdBy: v.createdBy,
  createdAt: ms(v.row.createdAt)!,
  updatedAt: ms(v.row.updatedAt)!,
  lastUsedAt: ms(v.row.lastUsedAt),
  canUpdate: v.canManage,
  canDelete: v.canManage,
});

export const skillListRecord = (v: SkillView): SkillListRecord => ({
  ...common(v),
  resources: v.resources.map((r) => r.path),
});

export const skillRecord = (v: SkillView): SkillRecord => ({
  ...common(v),
  instructions: v.row.instructions,
  skillPackagePath: v.row.packageKey,
  skillPackageName: v.row.packageName,
  skillPackageSize: v.row.packageSize,
  skillPackageUploadedAt: ms(v.row.packageUploadedAt),
  resources: v.resources.map((r) => ({
    id: r.id,
    path: r.path,
    filePath: r.objectKey,
    fileSize: r.size,
    mimeType: r.mimeType,
    createdAt: ms(r.createdAt)!,
  })),
});
