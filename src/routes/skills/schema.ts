import { z } from "@hono/zod-openapi";
import { SKILL_SOURCES } from "../../db/schema";
import { IdName, IdRef, Timestamp } from "../../lib/openapi";
import { PageQuery } from "../../lib/pagination";

export const SKILLS_TAG = "Skills";
const EXAMPLE_ID = "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d";

const AttachedTool = z
  .object({
    id: z.string().openapi({ example: EXAMPLE_ID }),
    name: z.string().nullable().openapi({ description: "Function name", example: "get_weather" }),
    description: z.string().openapi({ example: "Current weather of a city" }),
    displayName: z.string().openapi({ example: "Weather" }),
    toolType: z.string().openapi({ example: "api" }),
  })
  .openapi("SkillAttachedTool");

const common = {
  id: z.string().openapi({ example: EXAMPLE_ID }),
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
    .array(AttachedTool)
    .openapi({ description: "Tools loaded into the agent loop when the skill is used" }),
  groups: z.array(IdName).openapi({ description: "Groups whose members may see and use it" }),
  createdBy: z.union([IdName, z.null()]).openapi({ description: "Its author; `System` for global skills" }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  lastUsedAt: z.string().nullable().openapi({ description: "When an agent last used it (epoch ms)", example: null }),
  canUpdate: z.boolean().openapi({ example: true }),
  canDelete: z.boolean().openapi({ example: true }),
};

export const SkillListItem = z
  .object({
    ...common,
    resources: z
      .array(z.string())
      .openapi({ description: "Paths of its resource files", example: ["reference/policy.md"] }),
  })
  .openapi("SkillListItem");

const SkillResource = z
  .object({
    id: z.string().openapi({ example: EXAMPLE_ID }),
    path: z.string().openapi({ description: "Path inside the package", example: "reference/policy.md" }),
    filePath: z.string().openapi({ description: "Storage key", example: "skills/0190.../files/reference/policy.md" }),
    fileSize: z.number().int().openapi({ description: "Bytes", example: 1024 }),
    mimeType: z.string().openapi({ example: "text/markdown" }),
    createdAt: Timestamp,
  })
  .openapi("SkillResource");

export const SkillSchema = z
  .object({
    ...common,
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
    resources: z.array(SkillResource).openapi({ description: "Its resource files" }),
  })
  .openapi("Skill");

export const SkillUploadResult = z
  .object({
    id: z.string().openapi({ example: EXAMPLE_ID }),
    name: z.string().openapi({ example: "expense-report" }),
    description: z.string().openapi({ example: "Files an expense report" }),
    message: z.string().openapi({ example: "Skill uploaded with 2 resources." }),
  })
  .openapi("SkillUploadResult");

export const SkillUploadForm = z.object({
  file: z
    .any()
    .openapi({ type: "string", format: "binary", description: "The skill package (.zip with SKILL.md)", example: "" }),
  attachedToolIds: z.string().optional().openapi({
    description: "Tool ids, comma-separated or a JSON array string (snake_case attached_tool_ids too)",
    example: "",
  }),
  groups: z.string().optional().openapi({
    description: "Group ids, comma-separated or a JSON array string; non-owners must pick one of theirs",
    example: "",
  }),
  isGlobal: z
    .string()
    .optional()
    .openapi({ description: "`true`: a global skill (platform staff only)", example: "false" }),
});

const fields = {
  name: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .openapi({ description: "Unique in the organization", example: "expense-report" }),
  description: z
    .string()
    .trim()
    .min(1)
    .max(10_000)
    .openapi({ description: "What the skill does", example: "Files an expense report" }),
  whenToUse: z.string().max(2000).nullable().optional().openapi({
    description: "When the model should use it (about 200 characters recommended)",
    example: "When the user asks to file expenses",
  }),
  instructions: z
    .string()
    .max(200_000)
    .nullable()
    .optional()
    .openapi({ description: "Markdown instructions", example: "1. Ask for the receipt." }),
  attachedToolIds: z
    .array(z.uuid())
    .max(50)
    .nullable()
    .optional()
    .openapi({ description: "Tools (ids) loaded when the skill is used; replaces the list", example: [] }),
  groups: z
    .array(IdRef)
    .max(50)
    .nullable()
    .optional()
    .openapi({ description: "Groups (`[{id}]`); non-owners must pick at least one of their own", example: [] }),
};

export const SkillWrite = z.object(fields).openapi("SkillWrite");
export const SkillPatch = SkillWrite.partial().openapi("SkillPatch");
export const SkillCreate = SkillWrite.extend({
  isGlobal: z
    .boolean()
    .optional()
    .openapi({ description: "Create a global skill (platform staff only)", example: false }),
}).openapi("SkillCreate");

export const SkillListQuery = PageQuery.extend({
  search: z
    .string()
    .max(200)
    .optional()
    .openapi({ description: "Name, description or whenToUse contains", example: "expense" }),
});
