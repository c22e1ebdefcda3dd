import { z } from "@hono/zod-openapi";
import { SKILL_SOURCES } from "../../db/schema";
import { IdName, Timestamp, Timestamps } from "../../lib/openapi";
import { ms } from "../../lib/time";
import type { SkillView } from "../skills/views";

const EXAMPLE_ID = "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d";

const AttachedToolSchema = z
  .object({
    id: z.string().openapi({ description: "The tool's id", example: EXAMPLE_ID }),
    name: z.string().nullable().openapi({ description: "Function name", example: "get_weather" }),
    description: z
      .string()
      .openapi({ description: "The tool's description, shown to users", example: "Current weather of a city" }),
    displayName: z.string().openapi({ description: "Name shown to users", example: "Weather" }),
    toolType: z.string().openapi({ description: "api, function, mcp, desktop, flex or quick_reply", example: "api" }),
  })
  .openapi("SkillAttachedTool");

const commonFields = {
  id: z.string().openapi({ description: "The skill's id", example: EXAMPLE_ID }),
  name: z
    .string()
    .openapi({ description: "Unique in the organization; what the model chooses by", example: "expense-report" }),
  description: z.string().openapi({ description: "What the skill does", example: "Files an expense report" }),
  whenToUse: z.string().openapi({
    description: "When the model should use it (about 200 characters)",
    example: "When the user asks to file expenses",
  }),
  source: z.enum(SKILL_SOURCES).openapi({ description: "upload (from a package) or manual", example: "upload" }),
  attachedTools: z
    .array(AttachedToolSchema)
    .openapi({ description: "Tools loaded into the agent loop when the skill is used" }),
  groups: z.array(IdName).openapi({ description: "Groups whose members may see and use it" }),
  createdBy: z.union([IdName, z.null()]).openapi({ description: "Its author; `System` for global skills" }),
  ...Timestamps,
  lastUsedAt: z.string().nullable().openapi({ description: "When an agent last used it (epoch ms)", example: null }),
  canUpdate: z.boolean().openapi({
    description: "Whether the caller may change it (skill.manage; global skills: platform staff only)",
    example: true,
  }),
  canDelete: z.boolean().openapi({
    description: "Whether the caller may delete it (skill.manage; global skills: platform staff only)",
    example: true,
  }),
};

export const SkillListItem = z
  .object({
    ...commonFields,
    resources: z
      .array(z.string())
      .openapi({ description: "Paths of its resource files", example: ["reference/policy.md"] }),
  })
  .openapi("SkillListItem");

const SkillResourceSchema = z
  .object({
    id: z.string().openapi({ description: "The resource file's id", example: EXAMPLE_ID }),
    path: z.string().openapi({ description: "Path inside the package", example: "reference/policy.md" }),
    filePath: z.string().openapi({ description: "Storage key", example: "skills/0190.../files/reference/policy.md" }),
    fileSize: z.number().int().openapi({ description: "Bytes", example: 1024 }),
    mimeType: z.string().openapi({ description: "The file's media type", example: "text/markdown" }),
    createdAt: Timestamp,
  })
  .openapi("SkillResource");

export const SkillSchema = z
  .object({
    ...commonFields,
    instructions: z.string().openapi({
      description: "Markdown instructions (SKILL.md's body)",
      example: "# Expense reports\n1. Ask for the receipt...",
    }),
    skillPackagePath: z
      .string()
      .nullable()
      .openapi({ description: "Storage key of the uploaded package", example: null }),
    skillPackageName: z
      .string()
      .nullable()
      .openapi({ description: "File name of the uploaded package", example: "expense-report.zip" }),
    skillPackageSize: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "Bytes of the uploaded package", example: 2048 }),
    skillPackageUploadedAt: z.string().nullable().openapi({ description: "Upload time (epoch ms)", example: null }),
    resources: z.array(SkillResourceSchema).openapi({ description: "Its resource files" }),
  })
  .openapi("Skill");

/** A skill in lists: resources as paths. */
export type SkillListRecord = z.infer<typeof SkillListItem>;
export type SkillResourceRecord = z.infer<typeof SkillResourceSchema>;
/** A skill in detail: instructions, the package, and resources as objects. */
export type SkillRecord = z.infer<typeof SkillSchema>;

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
