import { api, unwrap, type Schemas } from "../../api/client";

export type Organization = Schemas["Organization"];

export const getOrganization = (id: string) =>
  unwrap(api.GET("/api/v1/organizations/{id}/", { params: { path: { id } } }));

/** Saves settings (JSON) or logos (the multipart form); answers the organization as saved. */
export const patchOrganization = (id: string, body: Record<string, unknown> | FormData) =>
  unwrap(api.PATCH("/api/v1/organizations/{id}/", { params: { path: { id } }, body: body as never }));
