import { asc, eq, type SQL } from "drizzle-orm";
import type { Db } from "../../env";
import { chatbotSkills, skills } from "../../db/schema";
import { linkedNames } from "../view-parts";

/** The skills of assistants (those matching `where`), by name; the function returns one assistant's. */
export const chatbotSkillLinks = (db: Db, chatbotIds: string[], where?: SQL) =>
  linkedNames(
    db,
    chatbotIds,
    {
      table: chatbotSkills,
      owner: chatbotSkills.chatbotId,
      target: skills,
      on: eq(skills.id, chatbotSkills.skillId),
      id: skills.id,
      name: skills.name,
      orderBy: [asc(skills.name), asc(skills.id)],
    },
    where,
  );
