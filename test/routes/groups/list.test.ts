import { describe, expect, it } from "vitest";
import { type Actor, PREFIXES, call, expectError, seedMember, seedOwner, unique } from "../../harness";
import { expectDenied, expectNotFound, expectInvalid } from "../../support/refusals";
import { createGroup, groupsPath } from "./helpers";
import { bodyOf } from "../../support/api";

/** The names of the groups `owner` lists with `query` (`q`). */
const names = async (owner: Actor, q: string) =>
  (
    await bodyOf<"GET /organizations/{organizationPk}/groups/">(
      await owner.fetch("GET", `${groupsPath(owner.organizationId)}?query=${encodeURIComponent(q)}`),
    )
  ).results.map((g) => g.name);

describe("GET /organizations/{organizationPk}/groups/", () => {
  it.each(PREFIXES)("lists the organization's groups by name, with page form, under %s", async (prefix) => {
    const owner = await seedOwner();
    const other = await seedOwner();
    const tag = unique("t");
    const b = await createGroup(owner, ["chatbot.view"], `b-${tag}`);
    const a = await createGroup(owner, [], `a-${tag}`);
    await createGroup(other, [], `c-${tag}`);
    const res = await owner.fetch("GET", groupsPath(owner.organizationId), undefined, { prefix });
    expect(res.status).toBe(200);
    const page = await bodyOf<"GET /organizations/{organizationPk}/groups/">(res);
    expect(page).toMatchObject({ count: 2, next: null, previous: null });
    expect(page.results.map((g) => g.id)).toEqual([a.id, b.id]);
    expect(page.results[1]).toEqual(b);
  });

  it("pages with page and page_size; a page past the end is 404", async () => {
    const owner = await seedOwner();
    for (const n of [1, 2, 3]) await createGroup(owner, [], `g${n}`);
    const first = await bodyOf<"GET /organizations/{organizationPk}/groups/">(
      await owner.fetch("GET", `${groupsPath(owner.organizationId)}?page_size=2`),
    );
    expect(first.count).toBe(3);
    expect(first.results.map((g) => g.name)).toEqual(["g1", "g2"]);
    expect(first.next).toContain("page=2");
    const second = await bodyOf<"GET /organizations/{organizationPk}/groups/">(
      await owner.fetch("GET", `${groupsPath(owner.organizationId)}?page=2&pageSize=2`),
    );
    expect(second.results.map((g) => g.name)).toEqual(["g3"]);
    expect(second.next).toBeNull();
    expect(second.previous).not.toBeNull();
    await expectNotFound(await owner.fetch("GET", `${groupsPath(owner.organizationId)}?page=3&pageSize=2`));
  });

  it("400 for a page that is not a positive integer", async () => {
    const owner = await seedOwner();
    for (const page of ["0", "abc", "1.5"]) {
      await expectInvalid(await owner.fetch("GET", `${groupsPath(owner.organizationId)}?page=${page}`), "page");
    }
  });

  it("filters by `query`: name contains, case-insensitive, with % and _ taken literally", async () => {
    const owner = await seedOwner();
    await createGroup(owner, [], "Support Agents");
    await createGroup(owner, [], "Sales");
    await createGroup(owner, [], "100% _special");
    expect(await names(owner, "PORT")).toEqual(["Support Agents"]);
    expect(await names(owner, "s")).toEqual(["100% _special", "Sales", "Support Agents"]);
    expect(await names(owner, "%")).toEqual(["100% _special"]);
    expect(await names(owner, "_")).toEqual(["100% _special"]);
    expect(await names(owner, "nothing")).toEqual([]);
  });

  it("`query` folds the case of letters beyond ASCII, which D1's lower() leaves: lower, upper, title", async () => {
    const owner = await seedOwner();
    await createGroup(owner, [], "Мария Иванова");
    await createGroup(owner, [], "Équipe Müller");
    await createGroup(owner, [], "ΟΜΑΔΑ");
    for (const q of ["мария", "МАРИЯ", "мария иванова", "ария", "Иван"])
      expect(await names(owner, q), q).toEqual(["Мария Иванова"]);
    for (const q of ["équipe", "ÉQUIPE MÜLLER", "müller", "MÜLLER"])
      expect(await names(owner, q), q).toEqual(["Équipe Müller"]);
    expect(await names(owner, "ομαδα")).toEqual(["ΟΜΑΔΑ"]);
    expect(await names(owner, "ÉQUIPE".normalize("NFD"))).toEqual(["Équipe Müller"]);
  });

  it("member with group.view may list; without it 403; non-member 404; 401 without a key", async () => {
    const owner = await seedOwner();
    await createGroup(owner, []);
    const viewer = await seedMember(owner, ["group.view"]);
    const page = await bodyOf<"GET /organizations/{organizationPk}/groups/">(
      await viewer.fetch("GET", groupsPath(owner.organizationId)),
    );
    expect(page.count).toBe(2); // the group above and the viewer's own group
    const plain = await seedMember(owner, ["chatbot.view"]);
    await expectDenied(await plain.fetch("GET", groupsPath(owner.organizationId)));
    const stranger = await seedOwner();
    await expectNotFound(await stranger.fetch("GET", groupsPath(owner.organizationId)));
    await expectError(await call("GET", `/api/v1${groupsPath(owner.organizationId)}`), 401, "not_authenticated");
  });
});
