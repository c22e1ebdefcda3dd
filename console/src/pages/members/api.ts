import { api, unwrap, type Schemas } from "../../api/client";

export type Member = Schemas["Member"];
export type Group = Schemas["Group"];
export type Permission = Schemas["Permission"];

const org = (organizationPk: string) => ({ organizationPk });

/** The organization's groups (ordered by name), the first 100, for the member's groups dialog. */
export const listGroups = (organizationPk: string) =>
  unwrap(
    api.GET("/api/v1/organizations/{organizationPk}/groups/", {
      params: { path: org(organizationPk), query: { pageSize: 100 } },
    }),
  );

/** A page of the organization's groups (ordered by name), for the groups list. */
export const listGroupsPage = (organizationPk: string, page: number) =>
  unwrap(
    api.GET("/api/v1/organizations/{organizationPk}/groups/", {
      params: { path: org(organizationPk), query: { page, pageSize: PAGE_SIZE } },
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

export const PAGE_SIZE = 20;

/** A page of the organization's members: the page form (the endpoint answers an array only to `pagination=false`). */
export const listMembers = (organizationPk: string, page: number) =>
  unwrap(
    api.GET("/api/v1/organizations/{organizationPk}/members/", {
      params: { path: org(organizationPk), query: { page, pageSize: PAGE_SIZE } },
    }),
  ) as Promise<Schemas["MemberPage"]>;

/** Adds a registered user to the organization by e-mail. */
export const addMember = (organizationPk: string, email: string) =>
  unwrap(
    api.POST("/api/v1/organizations/{organizationPk}/members/", {
      params: { path: org(organizationPk) },
      body: { email },
    }),
  );

export const removeMember = (organizationPk: string, id: string) =>
  unwrap(
    api.DELETE("/api/v1/organizations/{organizationPk}/members/{id}/", { params: { path: { organizationPk, id } } }),
  );

/** Puts the member in exactly these groups (ids). */
export const setMemberGroups = (organizationPk: string, id: string, groups: string[]) =>
  unwrap(
    api.POST("/api/v1/organizations/{organizationPk}/members/{id}/update-groups/", {
      params: { path: { organizationPk, id } },
      body: { groups },
    }),
  );

type GroupWrite = { name: string; permissions: string[] };

export const getGroup = (organizationPk: string, id: string) =>
  unwrap(api.GET("/api/v1/organizations/{organizationPk}/groups/{id}/", { params: { path: { organizationPk, id } } }));

export const createGroup = (organizationPk: string, body: GroupWrite) =>
  unwrap(api.POST("/api/v1/organizations/{organizationPk}/groups/", { params: { path: org(organizationPk) }, body }));

export const updateGroup = (organizationPk: string, id: string, body: GroupWrite) =>
  unwrap(
    api.PATCH("/api/v1/organizations/{organizationPk}/groups/{id}/", {
      params: { path: { organizationPk, id } },
      body,
    }),
  );

export const deleteGroup = (organizationPk: string, id: string) =>
  unwrap(
    api.DELETE("/api/v1/organizations/{organizationPk}/groups/{id}/", { params: { path: { organizationPk, id } } }),
  );

/** The group's members (links: their own id, and the member), the first 100. */
export const groupMembers = (organizationPk: string, groupPk: string) =>
  unwrap(
    api.GET("/api/v1/organizations/{organizationPk}/groups/{groupPk}/group-members/", {
      params: { path: { organizationPk, groupPk }, query: { pageSize: 100 } },
    }),
  );

export const addGroupMember = (organizationPk: string, groupPk: string, memberId: string) =>
  unwrap(
    api.POST("/api/v1/organizations/{organizationPk}/groups/{groupPk}/group-members/bulk-create/", {
      params: { path: { organizationPk, groupPk } },
      body: { members: [memberId] },
    }),
  );

/** Takes a member out of the group (`id`: the link's). */
export const removeGroupMember = (organizationPk: string, groupPk: string, id: string) =>
  unwrap(
    api.DELETE("/api/v1/organizations/{organizationPk}/groups/{groupPk}/group-members/{id}/", {
      params: { path: { organizationPk, groupPk, id } },
    }),
  );

/** The group's assistants (links: their own id, and the assistant), the first 100. */
export const groupChatbots = (organizationPk: string, groupPk: string) =>
  unwrap(
    api.GET("/api/v1/organizations/{organizationPk}/groups/{groupPk}/group-chatbots/", {
      params: { path: { organizationPk, groupPk }, query: { pageSize: 100 } },
    }),
  );

export const addGroupChatbot = (organizationPk: string, groupPk: string, chatbotId: string) =>
  unwrap(
    api.POST("/api/v1/organizations/{organizationPk}/groups/{groupPk}/group-chatbots/bulk-create/", {
      params: { path: { organizationPk, groupPk } },
      body: { chatbots: [chatbotId] },
    }),
  );

/** Takes an assistant out of the group (`id`: the link's). */
export const removeGroupChatbot = (organizationPk: string, groupPk: string, id: string) =>
  unwrap(
    api.DELETE("/api/v1/organizations/{organizationPk}/groups/{groupPk}/group-chatbots/{id}/", {
      params: { path: { organizationPk, groupPk, id } },
    }),
  );

/** The assistants the member can see, the first 100. */
export const listAssistants = () =>
  unwrap(api.GET("/api/v1/chatbots/", { params: { query: { pageSize: 100 } } })).then((p) => p.results);

/** The knowledge bases the member can see, the first 100 (with their groups). */
export const listKnowledgeBases = () =>
  unwrap(api.GET("/api/v1/knowledge-bases/", { params: { query: { pageSize: 100 } } })).then((p) => p.results);

/** Gives a knowledge base exactly these groups. */
export const setKnowledgeBaseGroups = (id: string, groups: { id: string }[]) =>
  unwrap(api.PATCH("/api/v1/knowledge-bases/{id}/", { params: { path: { id } }, body: { groups } }));
