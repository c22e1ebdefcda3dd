import { describe, expect, it } from "vitest";
import { call, expectError, seedMember, seedOwner, type Actor } from "../../harness";
import { assistantWithInbox, handedOff, seedAgent, seedTeam } from "./fixtures";
import { type Body, bodyOf } from "../../support/api";

type Page = Body<"GET /conversations/">;
const pageRead = async (res: Response) => {
  expect(res.status, await res.clone().text()).toBe(200);
  return await bodyOf<"GET /conversations/">(res);
};
const list = async (actor: Actor, query: string) => pageRead(await actor.fetch("GET", `/conversations/?${query}`));
const ids = (page: Page) => page.results.map((c) => c.id);
const follow = async (actor: Actor, url: string) =>
  pageRead(
    await call("GET", new URL(url).pathname + new URL(url).search, undefined, {
      Authorization: `Api-Key ${actor.key}`,
    }),
  );

describe("GET /conversations/ views and assignment filters", () => {
  it("mine, unassigned, waiting (longest waiting first, pages by cursor both ways), assignee and team", async () => {
    const owner = await seedOwner();
    const agent = await seedAgent(owner);
    const team = await seedTeam(owner, [agent.memberId]);
    const { inboxId, talk } = await assistantWithInbox(owner, null);
    const older = await handedOff(talk); // queued, will be mine
    const waiting = await handedOff(talk); // queued, unassigned, the team's
    const open = (await talk("just a question")).conversationId; // with the assistant
    const done = await handedOff(talk); // mine, then resolved
    await owner.fetch("POST", `/conversations/${older}/assign/`, { assigneeId: owner.userId });
    await owner.fetch("POST", `/conversations/${waiting}/assign/`, { teamId: team });
    await owner.fetch("POST", `/conversations/${done}/assign/`, { assigneeId: owner.userId });
    await owner.fetch("POST", `/conversations/${done}/resolve/`);
    const scope = `inbox=${inboxId}`;

    expect(ids(await list(owner, `${scope}&view=mine`))).toEqual([older]);
    expect(ids(await list(agent, `${scope}&view=mine`))).toEqual([]);
    expect(ids(await list(owner, `${scope}&view=unassigned`))).toEqual([open, waiting]);
    expect(ids(await list(owner, `${scope}&view=unassigned&team=${team}`))).toEqual([waiting]);
    expect(ids(await list(owner, `${scope}&view=waiting`))).toEqual([older, waiting]);
    expect(ids(await list(owner, `${scope}&assignee=me`))).toEqual([done, older]);
    expect(ids(await list(owner, `${scope}&assignee=${owner.userId}`))).toEqual([done, older]);
    expect(ids(await list(owner, `${scope}&assignee=none`))).toEqual([open, waiting]);
    expect(ids(await list(owner, `${scope}&team=${team}`))).toEqual([waiting]);

    const first = await list(owner, `${scope}&view=waiting&pageSize=1`);
    expect(ids(first)).toEqual([older]);
    const second = await follow(owner, first.next!);
    expect(ids(second)).toEqual([waiting]);
    expect(second.next).toBeNull();
    expect(ids(await follow(owner, second.previous!))).toEqual([older]);
    // The usual list still pages newest first.
    const newest = await list(owner, `${scope}&pageSize=2`);
    expect(ids(newest)).toEqual([done, open]);
    expect(ids(await follow(owner, newest.next!))).toEqual([waiting, older]);

    // A label's list is read from its links (newest first, by cursor both ways), but in the waiting view.
    const res = await owner.fetch("POST", "/labels/", { name: "Billing", color: "#123456" });
    const billing = (await bodyOf<"POST /labels/">(res)).id;
    for (const id of [older, waiting, done])
      await owner.fetch("PUT", `/conversations/${id}/labels/`, { labelIds: [billing] });
    const labelled = `${scope}&label=${billing}`;
    expect(ids(await list(owner, labelled))).toEqual([done, waiting, older]);
    const page = await list(owner, `${labelled}&pageSize=2`);
    expect(ids(page)).toEqual([done, waiting]);
    const rest = await follow(owner, page.next!);
    expect(ids(rest)).toEqual([older]);
    expect(rest.next).toBeNull();
    expect(ids(await follow(owner, rest.previous!))).toEqual([done, waiting]);
    expect(ids(await list(owner, `${labelled}&view=waiting`))).toEqual([older, waiting]);
    expect(ids(await list(owner, `${labelled}&view=mine`))).toEqual([older]);
    expect(ids(await list(owner, `${labelled}&status=resolved`))).toEqual([done]);
  });

  it("400 for a bad assignee, team, view or waiting cursor; 401 without a key; 403 without permission", async () => {
    const owner = await seedOwner();
    const plain = await seedMember(owner);
    await expectError(await owner.fetch("GET", "/conversations/?assignee=someone"), 400, "invalid");
    await expectError(await owner.fetch("GET", "/conversations/?team=nope"), 400, "invalid");
    await expectError(await owner.fetch("GET", "/conversations/?view=everything"), 400, "invalid");
    const bad = btoa(JSON.stringify({ k: "not-a-key", d: "n" }));
    await expectError(await owner.fetch("GET", `/conversations/?view=waiting&cursor=${bad}`), 400, "invalid");
    await expectError(await call("GET", "/api/v1/conversations/?view=mine"), 401);
    await expectError(await plain.fetch("GET", "/conversations/?view=mine"), 403);
  });
});
