import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { users } from "./accounts";
import { groups, organizations } from "./organizations";
import { chatbots } from "./chatbots";
import { tools } from "./tools";
import { belongsTo, createdAt, id, timestamps, linkTable } from "./columns";

export const SKILL_SOURCES = ["upload", "manual"] as const;

/**
 * Skills (spec "Skill"): instructions an agent loads when the model chooses them (`use_skill`),
 * with resource files it can read by path. A null organization is a global skill (platform staff).
 * An uploaded package and its resources live in R2 under `skills/<organization>/<skill id>/`.
 */
export const skills = sqliteTable(
  "skills",
  {
    id: id(),
    organizationId: text("organization_id").references(() => organizations.id, { onDelete: "cascade" }),
    createdById: text("created_by_id").references(() => users.id, { onDelete: "set null" }),
    /** Unique in the organization; what the model chooses by. */
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    whenToUse: text("when_to_use").notNull().default(""),
    instructions: text("instructions").notNull().default(""),
    source: text("source", { enum: SKILL_SOURCES }).notNull().default("manual"),
    packageKey: text("package_key"),
    packageName: text("package_name"),
    packageSize: integer("package_size"),
    packageUploadedAt: integer("package_uploaded_at"),
    lastUsedAt: integer("last_used_at"),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("skills_org_name_uq").on(t.organizationId, t.name),
    // SQLite takes NULLs for distinct, so the index above holds no two global skills apart: this one does.
    uniqueIndex("skills_global_name_uq").on(t.name).where(sql`${t.organizationId} is null`),
    index("skills_org_idx").on(t.organizationId, t.createdAt),
  ],
);

/** The files of a skill package other than SKILL.md, read by `read_skill_resource`. */
export const skillResources = sqliteTable(
  "skill_resources",
  {
    id: id(),
    skillId: belongsTo("skill_id", () => skills.id),
    /** The path inside the package (`reference/api.md`). */
    path: text("path").notNull(),
    objectKey: text("object_key").notNull(),
    size: integer("size").notNull(),
    mimeType: text("mime_type").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("skill_resources_path_uq").on(t.skillId, t.path)],
);

/** Tools a skill brings into the agent loop once it is used. */
export const skillTools = linkTable("skill_tools", "skill_tools_tool_idx", {
  skillId: belongsTo("skill_id", () => skills.id),
  toolId: belongsTo("tool_id", () => tools.id),
});

/** Group access to skills (CONTRACT section 4). */
export const skillGroups = linkTable("skill_groups", "skill_groups_group_idx", {
  skillId: belongsTo("skill_id", () => skills.id),
  groupId: belongsTo("group_id", () => groups.id),
});

/** The skills an assistant offers (`skills: [{id}]` on the chatbot). */
export const chatbotSkills = linkTable("chatbot_skills", "chatbot_skills_skill_idx", {
  chatbotId: belongsTo("chatbot_id", () => chatbots.id),
  skillId: belongsTo("skill_id", () => skills.id),
});
