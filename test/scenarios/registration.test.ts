import { describe, expect, it } from "vitest";
import { call, unique } from "../harness";
import { expectDenied, expectNotFound } from "../support/refusals";
import { bodyOf, pageOf } from "../support/api";

/** Registration from nothing to a member with exactly one permission. */
async function register(company: string) {
  const email = `${unique("user")}@example.com`;
  const res = await call("POST", "/api/auth/registration/", {
    email,
    password1: "correct horse battery",
    password2: "correct horse battery",
    name: company,
    company,
  });
  expect(res.status, await res.clone().text()).toBe(201);
  const body = await bodyOf<"POST /auth/registration/">(res);
  expect(body.organization.name).toBe(company);
  const as = (method: string, path: string, payload?: unknown, headers: Record<string, string> = {}) =>
    call(method, `/api/v1${path}`, payload, { Authorization: `Api-Key ${body.apiKey}`, ...headers });
  return { ...body, email, as };
}

describe("registration from nothing", () => {
  it("a member holds exactly what their group grants, and other organizations see nothing", async () => {
    const ada = await register("Acme");
    const bob = await register("Bob Co");
    const eve = await register("Eve Corp");
    const org = ada.organization.id;

    // Ada's organization exists for Ada only.
    expect((await ada.as("GET", `/organizations/${org}/`)).status).toBe(200);

    // Bob joins Acme, at first with no permission.
    const added = await ada.as("POST", `/organizations/${org}/members/`, { email: bob.email });
    expect(added.status, await added.clone().text()).toBe(201);
    const member = await bodyOf<"POST /organizations/{organizationPk}/members/">(added);
    const inAcme = { "X-Organization-Id": org };
    await expectDenied(await bob.as("GET", `/organizations/${org}/members/`, undefined, inAcme));
    expect((await bob.as("GET", `/organizations/${org}/members/current/`)).status).toBe(200);

    // A group with one permission: member.view.
    const catalogue = await bodyOf<"GET /permissions/">(await ada.as("GET", "/permissions/"));
    expect(catalogue.every((p) => p.granted)).toBe(true);
    const memberView = catalogue.find((p) => p.codename === "member.view")!;
    const group = await ada.as("POST", `/organizations/${org}/groups/`, {
      name: "Viewers",
      permissions: [memberView.id],
    });
    expect(group.status, await group.clone().text()).toBe(201);
    const { id: groupId } = await bodyOf<"POST /organizations/{organizationPk}/groups/">(group);
    const joined = await ada.as("POST", `/organizations/${org}/groups/${groupId}/group-members/bulk-create/`, {
      members: [member.id],
    });
    expect(joined.status, await joined.clone().text()).toBe(201);

    // Bob can now do exactly that, and nothing more.
    const granted = await bodyOf<"GET /permissions/">(await bob.as("GET", "/permissions/", undefined, inAcme));
    expect(granted.filter((p) => p.granted).map((p) => p.codename)).toEqual(["member.view"]);
    const list = await bob.as("GET", `/organizations/${org}/members/`, undefined, inAcme);
    expect(list.status).toBe(200);
    expect((await pageOf<"GET /organizations/{organizationPk}/members/">(list)).count).toBe(2);
    await expectDenied(await bob.as("POST", `/organizations/${org}/members/`, { email: eve.email }, inAcme));
    await expectDenied(
      await bob.as("POST", `/organizations/${org}/groups/`, { name: "Mine", permissions: [] }, inAcme),
    );
    await expectDenied(await bob.as("PUT", `/organizations/${org}/`, { name: "Bob's now" }, inAcme));
    await expectDenied(await bob.as("DELETE", `/organizations/${org}/`, undefined, inAcme));
    await expectDenied(await bob.as("POST", "/inboxes/", { name: "x", channelType: "web" }, inAcme));

    // Eve, of another organization, gets 404 for every resource of Acme.
    for (const path of [
      `/organizations/${org}/`,
      `/organizations/${org}/members/`,
      `/organizations/${org}/members/${member.id}/`,
      `/organizations/${org}/groups/`,
      `/organizations/${org}/groups/${groupId}/`,
      `/organizations/${org}/groups/${groupId}/group-members/`,
    ]) {
      await expectNotFound(await eve.as("GET", path));
    }
    await expectNotFound(await eve.as("DELETE", `/organizations/${org}/members/${member.id}/`));
    await expectNotFound(await eve.as("GET", "/permissions/", undefined, inAcme));
  });
});
