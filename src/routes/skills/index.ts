import type { Router } from "../../lib/openapi";
import { registerUploadSkill } from "./upload";
import { registerListSkills } from "./list";
import { registerCreateSkill } from "./create";
import { registerGetSkill } from "./get";
import { registerUpdateSkill } from "./update";
import { registerDeleteSkill } from "./delete";

export function registerSkillRoutes(r: Router) {
  // Before `/skills/{id}/`: `upload` is not an id.
  registerUploadSkill(r);
  registerListSkills(r);
  registerCreateSkill(r);
  registerGetSkill(r);
  registerUpdateSkill(r);
  registerDeleteSkill(r);
}
