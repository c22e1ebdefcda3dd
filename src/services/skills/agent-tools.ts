import { and, eq, inArray, isNull, or } from "drizzle-orm";
import { chatbotSkills, skillResources, skills, skillTools, tools } from "../../db/schema";
import { isD1Error } from "../../lib/errors";
import { replyLinks } from "../agent/links";
import type { ToolProvider } from "../agent/registry";
import type { AgentTool, ToolContext } from "../agent/types";
import type { ToolRow } from "../tools/access";
import { usableToolsCondition } from "../tools/chatbot-tools";
import type { SkillRow } from "./access";
import { logError } from "../../lib/log";

const RESOURCE_CHARS = 16_000;
const TEXT_TYPES = /^(text\/|application\/(json|xml|yaml|sql|javascript))/;

type Build = (row: ToolRow) => AgentTool | null;
export type OfferedSkill = Pick<SkillRow, "id" | "name" | "description" | "whenToUse">;

/** The assistant's skills a reply offers, those of the message's `skillIds` when it names some (agent/links.ts). */
export const offeredSkillsQuery = (ctx: ToolContext) => {
  const narrowed = ctx.incoming.skillIds?.length ? ctx.incoming.skillIds.slice(0, 50) : null;
  return ctx.db
    .select({ id: skills.id, name: skills.name, description: skills.description, whenToUse: skills.whenToUse })
    .from(chatbotSkills)
    .innerJoin(skills, eq(skills.id, chatbotSkills.skillId))
    .where(
      and(
        eq(chatbotSkills.chatbotId, ctx.chatbot.id),
        or(isNull(skills.organizationId), eq(skills.organizationId, ctx.organizationId)),
        narrowed ? inArray(skills.id, narrowed) : undefined,
      ),
    )
    .orderBy(skills.name);
};

/**
 * The assistant's skills as two built-in tools (docs/decisions.md, "Skills"): `use_skill` shows the
 * model each skill's name and when to use it; choosing one returns its instructions and brings its
 * attached tools into the loop. `read_skill_resource` reads a file of a skill's package by path.
 * A message's `skillIds` narrows the skills to those.
 */
export const skillsProvider =
  (build: Build): ToolProvider =>
  async (ctx, options) => {
    const offered = (await replyLinks(ctx, options)).skills;
    if (!offered.length) return [];
    const [withResources] = await ctx.db
      .select({ id: skillResources.id })
      .from(skillResources)
      .where(
        inArray(
          skillResources.skillId,
          offered.map((s) => s.id),
        ),
      )
      .limit(1);
    return [useSkillTool(offered, build), ...(withResources ? [readResourceTool(offered)] : [])];
  };

const byName = (offered: OfferedSkill[], name: unknown) =>
  offered.find((s) => s.name === name) ??
  offered.find((s) => s.name.toLowerCase() === String(name).trim().toLowerCase());

function useSkillTool(offered: OfferedSkill[], build: Build): AgentTool {
  const catalogue = offered
    .map((s) => `- ${s.name}: ${(s.whenToUse || s.description).replace(/\s+/g, " ").slice(0, 300)}`)
    .join("\n");
  return {
    name: "use_skill",
    displayName: "Use skill",
    kind: "skill",
    toolId: null,
    description:
      `Load a skill: its instructions (and any tools it brings) for the task at hand. Call it before doing a ` +
      `task one of these skills covers:\n${catalogue}`,
    parameters: {
      type: "object",
      properties: { name: { type: "string", enum: offered.map((s) => s.name), description: "The skill's name" } },
      required: ["name"],
      additionalProperties: false,
    },
    async run(args, ctx) {
      const chosen = byName(offered, args.name);
      if (!chosen)
        return { status: "failure", error: `No skill named "${String(args.name).slice(0, 100)}" is available.` };
      const [[skill], resources, attached] = await Promise.all([
        ctx.db.select().from(skills).where(eq(skills.id, chosen.id)),
        ctx.db
          .select({ path: skillResources.path })
          .from(skillResources)
          .where(eq(skillResources.skillId, chosen.id))
          .orderBy(skillResources.path),
        attachedTools(ctx, chosen.id),
      ]);
      if (!skill) return { status: "failure", error: "The skill no longer exists." };
      // A skill's last use is a figure shown to the team: the skill is used whether or not D1 takes it.
      ctx.db
        .update(skills)
        .set({ lastUsedAt: Date.now() })
        .where(eq(skills.id, skill.id))
        .run()
        .catch((err) => {
          if (!isD1Error(err)) throw err;
          logError("skill's last use not written", { skillId: skill.id, error: String(err) });
        });
      const added = attached.map(build).filter((t): t is AgentTool => !!t);
      const output = {
        skill: skill.name,
        instructions: skill.instructions,
        resources: resources.map((r) => r.path),
        tools: added.map((t) => t.name),
      };
      const lines = [
        `Skill "${skill.name}" loaded. Follow its instructions:`,
        "",
        skill.instructions || "(no instructions)",
      ];
      if (resources.length)
        lines.push(
          "",
          `Resource files (read them with read_skill_resource): ${resources.map((r) => r.path).join(", ")}`,
        );
      if (added.length) lines.push("", `Tools now available: ${added.map((t) => t.name).join(", ")}`);
      return { status: "success", output, forModel: lines.join("\n"), tools: added };
    },
  };
}

/** The skill's attached tools the organization can use (its own or global). */
async function attachedTools(ctx: ToolContext, skillId: string): Promise<ToolRow[]> {
  const rows = await ctx.db
    .select({ tool: tools })
    .from(skillTools)
    .innerJoin(tools, eq(tools.id, skillTools.toolId))
    .where(and(eq(skillTools.skillId, skillId), usableToolsCondition(ctx.organizationId)));
  return rows.map((r) => r.tool).filter((t) => t.name && t.toolType !== "desktop");
}

function readResourceTool(offered: OfferedSkill[]): AgentTool {
  return {
    name: "read_skill_resource",
    displayName: "Read skill resource",
    kind: "skill",
    toolId: null,
    description: "Read a resource file of a skill's package by its path (as listed when the skill was loaded).",
    parameters: {
      type: "object",
      properties: {
        skill: { type: "string", enum: offered.map((s) => s.name), description: "The skill's name" },
        path: { type: "string", maxLength: 300, description: "The file's path inside the skill package" },
      },
      required: ["skill", "path"],
      additionalProperties: false,
    },
    async run(args, ctx) {
      const skill = byName(offered, args.skill);
      if (!skill)
        return { status: "failure", error: `No skill named "${String(args.skill).slice(0, 100)}" is available.` };
      const path = String(args.path)
        .trim()
        .replace(/^\.?\//, "");
      const [resource] = await ctx.db
        .select()
        .from(skillResources)
        .where(and(eq(skillResources.skillId, skill.id), eq(skillResources.path, path)));
      if (!resource)
        return { status: "failure", error: `The skill "${skill.name}" has no resource "${path.slice(0, 300)}".` };
      if (!TEXT_TYPES.test(resource.mimeType)) {
        return {
          status: "success",
          output: { path, mimeType: resource.mimeType, size: resource.size, text: null },
          forModel: `${path} is a ${resource.mimeType} file of ${resource.size} bytes; it cannot be shown as text.`,
        };
      }
      const object = await ctx.env.FILES.get(resource.objectKey, { range: { offset: 0, length: RESOURCE_CHARS * 4 } });
      if (!object) return { status: "failure", error: `The file of "${path}" is missing from storage.` };
      const full = new TextDecoder().decode(await object.arrayBuffer());
      const text =
        full.length > RESOURCE_CHARS || resource.size > RESOURCE_CHARS * 4
          ? `${full.slice(0, RESOURCE_CHARS)} [truncated]`
          : full;
      return {
        status: "success",
        output: { path, mimeType: resource.mimeType, size: resource.size, text },
        forModel: text,
      };
    },
  };
}
