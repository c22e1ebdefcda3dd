import { expect } from "vitest";
import { PERMISSIONS, type Permission } from "../../../src/services/permissions";
import { unique, type Actor } from "../../harness";
import { bodyOf } from "../../support/api";
import { expectInvalid } from "../../support/refusals";

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
