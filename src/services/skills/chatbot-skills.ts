import { asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../../env";
import { chatbotSkills, skills } from "../../db/schema";
import { inChunks } from "../../lib/sql";

/** The skills of assistants, by name: `[{chatbotId, id, name}]`. */
export const chatbotSkillLinks = (db: Db, chatbotIds: string[]) =>
  inChunks(chatbotIds, (ids) =>
    db
      .select({ chatbotId: chatbotSkills.chatbotId, id: skills.id, name: skills.name })
      .from(chatbotSkills)
      .innerJoin(skills, eq(skills.id, chatbotSkills.skillId))
      .where(inArray(chatbotSkills.chatbotId, ids))
      .orderBy(asc(skills.name), asc(skills.id)),
  );
