import { api, unwrap, type BodyOf, type Schemas } from "../../api/client";

export type CannedResponse = Schemas["CannedResponse"];
export const PAGE_SIZE = 20;

export const listCannedResponses = (page: number, search = "", pageSize = PAGE_SIZE) =>
  unwrap(
    api.GET("/api/v1/canned-responses/", { params: { query: { page, pageSize, ...(search ? { search } : {}) } } }),
  );
export const createCannedResponse = (body: BodyOf<"/api/v1/canned-responses/", "post">) =>
  unwrap(api.POST("/api/v1/canned-responses/", { body }));
export const updateCannedResponse = (id: string, body: BodyOf<"/api/v1/canned-responses/{id}/", "patch">) =>
  unwrap(api.PATCH("/api/v1/canned-responses/{id}/", { params: { path: { id } }, body }));
export const deleteCannedResponse = (id: string) =>
  unwrap(api.DELETE("/api/v1/canned-responses/{id}/", { params: { path: { id } } }));
