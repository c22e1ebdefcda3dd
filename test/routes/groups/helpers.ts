import { expect } from "vitest";
import { PERMISSIONS, type Permission } from "../../../src/services/permissions";
import { NO_SUCH_ID, call, expectError, seedOwner, unique, type Actor } from "../../harness";
import { bodyOf, pageOf } from "../../support/api";
import { expectDenied, expectInvalid, expectNotFound } from "../../support/refusals";

export const permissionId = (codename: Permission) => PERMISSIONS.find((p) => p.codename === codename)!.id;

export interface GroupBody {
  id: string;
  name: string;
  organization: string;
  permissions: { id: string; name: string; codename: string }[];
  membersCount: number;
  createdAt: string;
  updatedAt: string;
}

export const groupsPath = (organizationId: string, rest = "") => `/organizations/${organizationId}/groups/${rest}`;

/** Creates a group through the API as `actor` (an owner or a member with group.manage). */
export async function createGroup(
  actor: Actor,
  permissions: Permission[] = [],
  name = unique("group"),
): Promise<GroupBody> {
  const res = await actor.fetch("POST", groupsPath(actor.organizationId), {
    name,
    permissions: permissions.map(permissionId),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return await bodyOf<"POST /organizations/{organizationPk}/groups/">(res);
}

export const codenames = (group: GroupBody) => group.permissions.map((p) => p.codename).sort();

/**
 * A bulk-create of a group (`path`, its list in the body's `field`) refused as `actor`, 400 naming `field`: for `mine`
 * beside each id of `bad`, and for a list that is empty, missing or not a list.
 */
export async function expectBulkCreateRefusals(actor: Actor, path: string, field: string, mine: string, bad: string[]) {
  for (const id of bad) await expectInvalid(await actor.fetch("POST", path, { [field]: [mine, id] }), field);
  for (const list of [[], undefined, "x"])
    await expectInvalid(await actor.fetch("POST", path, { [field]: list }), field);
}

// A group's links: its assistants (group-chatbots) and its members (group-members), each a list under the group's
// path with the same routes (bulk-create, list, get, delete), so their tests share what reaches and refuses them.
type BulkCreate = {
  "group-chatbots": "POST /organizations/{organizationPk}/groups/{groupPk}/group-chatbots/bulk-create/";
  "group-members": "POST /organizations/{organizationPk}/groups/{groupPk}/group-members/bulk-create/";
};
type LinkList = {
  "group-chatbots": "GET /organizations/{organizationPk}/groups/{groupPk}/group-chatbots/";
  "group-members": "GET /organizations/{organizationPk}/groups/{groupPk}/group-members/";
};
export type LinkKind = keyof BulkCreate;

/** The field of a bulk-create's body that lists what to link. */
export const LINKED = { "group-chatbots": "chatbots", "group-members": "members" } as const;

export const linksPath = (kind: LinkKind, organizationId: string, groupId: string, rest = "") =>
  groupsPath(organizationId, `${groupId}/${kind}/${rest}`);

/** Links `ids` to the group as `actor` through a bulk-create of `kind` (201): the links it made. */
export async function addLinks<K extends LinkKind>(actor: Actor, kind: K, groupId: string, ids: string[]) {
  const res = await actor.fetch("POST", linksPath(kind, actor.organizationId, groupId, "bulk-create/"), {
    [LINKED[kind]]: ids,
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return await bodyOf<BulkCreate[K]>(res);
}

/** A page of a group's links of kind `K`, once its status is 200. */
export async function linksPage<K extends LinkKind>(res: Response) {
  expect(res.status, await res.clone().text()).toBe(200);
  return pageOf<LinkList[K]>(res);
}

/** Links made by one request share a timestamp: a list orders them by id. */
export const byId = (x: { id: string }, y: { id: string }) => x.id.localeCompare(y.id);

/**
 * The refusals of `method` on a group's links of `kind` (`rest` below them, sent with `body`): 403 for `denied`,
 * 404 for the same request under another organization's group and for that organization's owner under this group,
 * 401 without a key. Returns the other organization's group.
 */
export async function expectLinksGuarded(
  { owner, denied }: { owner: Actor; denied: Actor },
  kind: LinkKind,
  request: { method: "GET" | "POST"; groupId: string; rest?: string; body?: unknown },
): Promise<GroupBody> {
  const { method, groupId, rest, body } = request;
  const path = linksPath(kind, owner.organizationId, groupId, rest);
  await expectDenied(await denied.fetch(method, path, body));
  const other = await seedOwner();
  const theirs = await createGroup(other);
  await expectNotFound(await owner.fetch(method, linksPath(kind, owner.organizationId, theirs.id, rest), body));
  await expectNotFound(await other.fetch(method, path, body));
  await expectError(await call(method, `/api/v1${path}`, body), 401, "not_authenticated");
  return theirs;
}

/** 404 for `method` on link `linkId` of `kind` through `siblingId` (another group), and for unknown or bad ids. */
export async function expectLinkIdsNotFound(
  owner: Actor,
  kind: LinkKind,
  method: "GET" | "DELETE",
  { groupId, siblingId, linkId }: { groupId: string; siblingId: string; linkId: string },
) {
  for (const [group, id] of [
    [siblingId, linkId],
    [groupId, NO_SUCH_ID],
    [groupId, "nope"],
  ])
    await expectNotFound(await owner.fetch(method, linksPath(kind, owner.organizationId, group, `${id}/`)));
}
