import { z } from "@hono/zod-openapi";
import { GroupRefs, NameField } from "../../lib/openapi";
import { PageQuery } from "../../lib/pagination";
import { SKILL_LIMITS } from "../../services/skills/package";

export const SKILLS_TAG = "Skills";
const EXAMPLE_ID = "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d";

export const SkillUploadResult = z
  .object({
    id: z.string().openapi({ description: "The skill's id", example: EXAMPLE_ID }),
    name: z.string().openapi({ description: "The skill's name, from the package", example: "expense-report" }),
    description: z
      .string()
      .openapi({ description: "What the skill does, from the package", example: "Files an expense report" }),
    message: z.string().openapi({
      description: "A confirmation for people, with the number of resource files stored",
      example: "Skill uploaded with 2 resources.",
    }),
  })
  .openapi("SkillUploadResult");

export const SkillUploadForm = z.object({
  file: z
    .any()
    .openapi({ type: "string", format: "binary", description: "The skill package (.zip with SKILL.md)", example: "" }),
  attachedToolIds: z
    .string()
    .optional()
    .openapi({
      description:
        "Tool ids, comma-separated or a JSON array string (snake_case attached_tool_ids too); a global skill takes " +
        "global tools only",
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
  name: NameField("Unique in the organization (a global skill: among the global skills)", "expense-report"),
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
    .max(SKILL_LIMITS.instructionsChars)
    .nullable()
    .optional()
    .openapi({ description: "Markdown instructions", example: "1. Ask for the receipt." }),
  attachedToolIds: z.array(z.uuid()).max(50).nullable().optional().openapi({
    description: "Tools (ids) loaded when the skill is used; replaces the list. A global skill takes global tools only",
    example: [],
  }),
  groups: GroupRefs("Groups (`[{id}]`); non-owners must pick at least one of their own"),
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
