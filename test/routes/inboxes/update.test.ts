import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { inboxes } from "../../../src/db/schema";
import { readAccess } from "../../../src/services/access";
import { updateInbox } from "../../../src/services/inboxes";
import { PREFIXES, call, db, expectError, parts, seedMember, seedOwner } from "../../harness";
import { expectDenied, expectNotFound, expectInvalid } from "../../support/refusals";
import { createInbox, seedChatbot } from "./fixtures";
import { bodyOf } from "../../support/api";
import { updatingAfter } from "../../support/races";

const stored = async (id: string) => (await db().select().from(inboxes).where(eq(inboxes.id, id)))[0];

describe("PUT and PATCH /inboxes/{id}/", () => {
  it.each(PREFIXES)("PUT renames and sets the assistant (%s)", async (prefix) => {
    const owner = await seedOwner();
    const bot = await seedChatbot(owner);
    const inbox = await createInbox(owner);
    const res = await owner.fetch(
      "PUT",
      `/inboxes/${inbox.id}/`,
      { name: "Renamed", channelType: "web", chatbot: { id: bot.id } },
      { prefix },
    );
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toMatchObject({ id: inbox.id, name: "Renamed", chatbot: bot, channel: inbox.channel });
  });

  it("PATCH changes only what it is given; chatbot null detaches", async () => {
    const owner = await seedOwner();
    const bot = await seedChatbot(owner);
    const inbox = await createInbox(owner, { chatbot: { id: bot.id } });
    const renamed = await bodyOf<"PATCH /inboxes/{id}/">(
      await owner.fetch("PATCH", `/inboxes/${inbox.id}/`, { name: "Only name" }),
    );
    expect(renamed).toMatchObject({ name: "Only name", chatbot: bot });
    const detached = await bodyOf<"PATCH /inboxes/{id}/">(
      await owner.fetch("PATCH", `/inboxes/${inbox.id}/`, { chatbot: null }),
    );
    expect(detached).toMatchObject({ name: "Only name", chatbot: null });
  });

  it("400 naming the field, nothing written: channelType change, missing PUT field, foreign assistant", async () => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner);
    const theirs = await seedChatbot(await seedOwner());
    const path = `/inboxes/${inbox.id}/`;
    const cases: [string, unknown, string][] = [
      ["PATCH", { channelType: "line", name: "New" }, "channelType"],
      ["PUT", { channelType: "web" }, "name"],
      ["PATCH", { name: "New", chatbot: { id: theirs.id } }, "chatbot"],
    ];
    for (const [method, body, field] of cases) {
      await expectInvalid(await owner.fetch(method, path, body), field);
    }
    expect(await stored(inbox.id)).toMatchObject({ name: inbox.name, channelType: "web", chatbotId: null });
  });

  it("400 at the field for a holiday that is no day of the calendar, nothing written", async () => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner);
    const hours = { timeZone: "Asia/Taipei", weekly: { mon: [["09:00", "18:00"]] }, holidays: ["2026-12-25"] };
    const path = `/inboxes/${inbox.id}/`;
    expect((await owner.fetch("PATCH", path, { businessHours: hours })).status).toBe(200);
    for (const day of ["2026-02-30", "2026-13-01", "2026-12-00"]) {
      // Stored, it would be a closed day that never comes (the list day filters refuse such days too).
      const businessHours = { ...hours, holidays: [day] };
      await expectInvalid(await owner.fetch("PATCH", path, { businessHours }), "businessHours.holidays.0");
    }
    expect((await stored(inbox.id)).businessHours).toEqual(hours);
  });

  it("a new assistant must be one the caller sees, as for POST; the one an inbox keeps need not be", async () => {
    const owner = await seedOwner();
    const hidden = await seedChatbot(owner); // created by the owner, given to no group
    const member = await seedMember(owner, ["inbox.manage", "inbox.view", "chatbot.view"]);
    await expectInvalid(
      await member.fetch("POST", "/inboxes/", { name: "x", channelType: "web", chatbot: { id: hidden.id } }),
      "chatbot",
    );
    const inbox = await createInbox(member);
    await expectInvalid(
      await member.fetch("PATCH", `/inboxes/${inbox.id}/`, { chatbot: { id: hidden.id } }),
      "chatbot",
    );
    expect((await stored(inbox.id)).chatbotId).toBeNull();
    // An owner gives the inbox that assistant; the member may still rename the inbox with the assistant it has.
    expect((await owner.fetch("PATCH", `/inboxes/${inbox.id}/`, { chatbot: { id: hidden.id } })).status).toBe(200);
    const res = await member.fetch("PATCH", `/inboxes/${inbox.id}/`, { name: "Renamed", chatbot: { id: hidden.id } });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await stored(inbox.id)).toMatchObject({ name: "Renamed", chatbotId: hidden.id });
  });

  it("a PATCH whose inbox is deleted meanwhile is a 404, not a 500", async () => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner);
    const deleted = async () => expect((await owner.fetch("DELETE", `/inboxes/${inbox.id}/`)).status).toBe(204);
    const access = (await readAccess(db(), owner.userId, owner.organizationId))!;
    const raced = updatingAfter(db(), deleted);
    const update = updateInbox(raced, await parts(owner.organizationId), access, owner.userId, inbox.id, {
      name: "New",
    });
    await expect(update).rejects.toMatchObject({ status: 404 });
    expect(await stored(inbox.id)).toBeUndefined();
  });

  it("403 for a member with inbox.view only", async () => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner);
    const viewer = await seedMember(owner, ["inbox.view"]);
    await expectDenied(await viewer.fetch("PATCH", `/inboxes/${inbox.id}/`, { name: "New" }));
    expect((await stored(inbox.id)).name).toBe(inbox.name);
  });

  it("404 for another organization's inbox", async () => {
    const owner = await seedOwner();
    const theirs = await createInbox(await seedOwner());
    await expectNotFound(await owner.fetch("PUT", `/inboxes/${theirs.id}/`, { name: "Mine", channelType: "web" }));
    expect((await stored(theirs.id)).name).toBe(theirs.name);
  });

  it("401 without a key", async () => {
    await expectError(
      await call("PATCH", `/api/inboxes/${crypto.randomUUID()}/`, { name: "x" }),
      401,
      "not_authenticated",
    );
  });
});
