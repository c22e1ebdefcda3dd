import { api, unwrap, type Schemas } from "../../api/client";

export type Member = Schemas["Member"];
export type Group = Schemas["Group"];
export type Permission = Schemas["Permission"];

const org = (organizationPk: string) => ({ organizationPk });

/** Every group of the organization (ordered by name), for pickers and the group list. */
export const listGroups = (organizationPk: string) =>
  unwrap(
    api.GET("/api/v1/organizations/{organizationPk}/groups/", {
      params: { path: org(organizationPk), query: { pageSize: 100 } },
    }),
  );

/** Every member (the `pagination=false` form): pickers need them all. */
export const allMembers = (organizationPk: string) =>
  unwrap(
    api.GET("/api/v1/organizations/{organizationPk}/members/", {
      params: { path: org(organizationPk), query: { pagination: "false" } },
    }),
  ) as Promise<Member[]>;

export const permissionCatalogue = () => unwrap(api.GET("/api/v1/permissions/"));

export const memberName = (m: { user: { name: string; email: string } }) => m.user.name || m.user.email;
