import { api, unwrap, type Schemas } from "../../api/client";

export type SkillItem = Schemas["SkillListItem"];
export type Skill = Schemas["Skill"];
export type SkillUploadResult = Schemas["SkillUploadResult"];

export const listSkills = (page: number) => unwrap(api.GET("/api/v1/skills/", { params: { query: { page, pageSize: 20 } } }));
export const getSkill = (id: string) => unwrap(api.GET("/api/v1/skills/{id}/", { params: { path: { id } } }));
export const deleteSkill = (id: string) => unwrap(api.DELETE("/api/v1/skills/{id}/", { params: { path: { id } } }));
/** The upload's path, posted with XMLHttpRequest for its progress (components/upload.tsx). */
export const UPLOAD_PATH = "/api/v1/skills/upload/";
