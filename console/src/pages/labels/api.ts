import { api, unwrap, type Schemas } from "../../api/client";

export type Label = Schemas["Label"];
export type LabelWrite = Schemas["LabelWrite"];

export const PAGE_SIZE = 20;
export const listLabels = (page: number, search: string) =>
  unwrap(
    api.GET("/api/v1/labels/", { params: { query: { page, pageSize: PAGE_SIZE, ...(search ? { search } : {}) } } }),
  );
export const createLabel = (body: LabelWrite) => unwrap(api.POST("/api/v1/labels/", { body }));
export const updateLabel = (id: string, body: LabelWrite) =>
  unwrap(api.PATCH("/api/v1/labels/{id}/", { params: { path: { id } }, body }));
export const deleteLabel = (id: string) => unwrap(api.DELETE("/api/v1/labels/{id}/", { params: { path: { id } } }));
