import { api, unwrap, type Schemas } from "../../api/client";
import type { paths } from "../../api/schema";

export type SkillItem = Schemas["SkillListItem"];
export type Skill = Schemas["Skill"];
export type SkillUploadResult = Schemas["SkillUploadResult"];
export type SkillPatch = paths["/api/v1/skills/{id}/"]["patch"]["requestBody"]["content"]["application/json"];

export const listSkills = (page: number) =>
  unwrap(api.GET("/api/v1/skills/", { params: { query: { page, pageSize: 20 } } }));
export const getSkill = (id: string) => unwrap(api.GET("/api/v1/skills/{id}/", { params: { path: { id } } }));
export const updateSkill = (id: string, body: SkillPatch) =>
  unwrap(api.PATCH("/api/v1/skills/{id}/", { params: { path: { id } }, body }));
/** The tools a skill can load (every type, desktop ones included), as `{id, name}` to tick. */
export const toolChoices = async () =>
  (
    await unwrap(api.GET("/api/v1/tools/", { params: { query: { pageSize: 100, clientPlatform: "desktop" } } }))
  ).results.map((tool) => ({ id: tool.id, name: tool.displayName }));
export const deleteSkill = (id: string) => unwrap(api.DELETE("/api/v1/skills/{id}/", { params: { path: { id } } }));
/** The upload's path, posted with XMLHttpRequest for its progress (components/upload.tsx). */
export const UPLOAD_PATH = "/api/v1/skills/upload/";
