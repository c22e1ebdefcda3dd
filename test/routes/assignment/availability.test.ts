import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { members } from "../../../src/db/schema";
import {
  NO_SUCH_ID,
  PREFIXES,
  call,
  db,
  expectError,
  seedMember,
  seedOwner,
  waitFor,
  type Settings,
} from "../../harness";
import { liveEvents } from "../../support/sse";
import { ORIGIN, signIn, withPassword } from "../sessions/fixtures";
import { setAvailability } from "./fixtures";

const availabilityPath = (organizationId: string) => `/organizations/${organizationId}/members/current/availability/`;
const stored = async (memberId: string) => (await db().select().from(members).where(eq(members.id, memberId)))[0]!;

describe("member availability and capacity", () => {
  it.each(PREFIXES)(
    "GET and PUT the caller's availability; the member record shows it with the capacity (%s)",
    async (prefix) => {
      const owner = await seedOwner();
      const member = await seedMember(owner);
      const path = availabilityPath(owner.organizationId);
      expect(await (await member.fetch("GET", path, undefined, { prefix })).json()).toEqual({
        availability: "offline",
      });
      for (const availability of ["online", "busy", "offline", "online"]) {
        const res = await member.fetch("PUT", path, { availability }, { prefix });
        expect(res.status, await res.clone().text()).toBe(200);
        expect(await res.json()).toEqual({ availability });
      }
      expect(await (await member.fetch("GET", path, undefined, { prefix })).json()).toEqual({ availability: "online" });
      const record = await (
        await owner.fetch("GET", `/organizations/${owner.organizationId}/members/${member.memberId}/`, undefined, {
          prefix,
        })
      ).json();
      expect(record).toMatchObject({ id: member.memberId, availability: "online", capacity: null });
      // Only the caller's own: the owner is still offline.
      expect(await (await owner.fetch("GET", path)).json()).toEqual({ availability: "offline" });
    },
  );

  it(
    "availability: 400 for a bad value (nothing written), 401 without a key, 404 for an organization the caller " +
      "is not in",
    async () => {
      const owner = await seedOwner();
      const other = await seedOwner();
      const path = availabilityPath(owner.organizationId);
      for (const body of [{ availability: "away" }, {}, { availability: 1 }])
        await expectError(await owner.fetch("PUT", path, body), 400, "invalid");
      expect(await (await owner.fetch("GET", path)).json()).toEqual({ availability: "offline" });
      await expectError(await call("GET", `/api/v1${path}`), 401);
      await expectError(await call("PUT", `/api/v1${path}`, { availability: "online" }), 401);
      await expectError(await other.fetch("GET", path), 404);
      await expectError(await other.fetch("PUT", path, { availability: "online" }), 404);
      await expectError(await owner.fetch("GET", availabilityPath(NO_SUCH_ID)), 404);
    },
  );

  it("PATCH a member's capacity (member.manage): 1..100 or null; 400, 401, 403 and 404 change nothing", async () => {
    const owner = await seedOwner();
    const other = await seedOwner();
    const member = await seedMember(owner);
    const manager = await seedMember(owner, ["member.manage"]);
    const path = `/organizations/${owner.organizationId}/members/${member.memberId}/`;
    const res = await manager.fetch("PATCH", path, { capacity: 3 });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toMatchObject({ id: member.memberId, capacity: 3 });
    for (const body of [{ capacity: 0 }, { capacity: 101 }, { capacity: 2.5 }, { capacity: "3" }, {}])
      await expectError(await owner.fetch("PATCH", path, body), 400, "invalid");
    await expectError(await call("PATCH", `/api/v1${path}`, { capacity: 4 }), 401);
    await expectError(await member.fetch("PATCH", path, { capacity: 4 }), 403);
    await expectError(await other.fetch("PATCH", path, { capacity: 4 }), 404);
    await expectError(
      await other.fetch("PATCH", `/organizations/${other.organizationId}/members/${member.memberId}/`, { capacity: 4 }),
      404,
    );
    expect((await stored(member.memberId)).capacity).toBe(3);
    expect(await (await owner.fetch("PATCH", path, { capacity: null })).json()).toMatchObject({ capacity: null });
  });
});

describe("presence: the last console tab closing makes the member offline", () => {
  const QUICK: Settings = { PRESENCE_GRACE_MS: "50" };

  it("offline once the last of two console streams is closed; an API key's stream does not count", async () => {
    const owner = await withPassword(await seedOwner());
    const session = await signIn({ email: owner.email, password: "correct horse battery" });
    const open = async (headers: Record<string, string>) => {
      const res = await call(
        "GET",
        `/api/v1/organizations/${owner.organizationId}/conversation-events/`,
        undefined,
        headers,
        QUICK,
      );
      expect(res.status).toBe(200);
      const events = liveEvents(res);
      await events.next((e) => e.event === "ready");
      return events;
    };
    const cookie = { Cookie: `console_session=${session.cookie}` };
    const [tab1, tab2, byKey] = [
      await open(cookie),
      await open(cookie),
      await open({ Authorization: `Api-Key ${owner.key}` }),
    ];
    const put = await call(
      "PUT",
      `/api/v1${availabilityPath(owner.organizationId)}`,
      { availability: "busy" },
      { ...cookie, Origin: ORIGIN },
    );
    expect(await put.json()).toEqual({ availability: "busy" });
    const memberId = (await db().select().from(members).where(eq(members.userId, owner.userId)))[0]!.id;

    await tab1.close();
    await new Promise((r) => setTimeout(r, 300)); // past the grace: the other tab keeps them there
    expect((await stored(memberId)).availability).toBe("busy");
    await tab2.close();
    expect(
      (
        await waitFor(
          () => stored(memberId),
          (m) => m.availability === "offline",
          5000,
        )
      ).availability,
    ).toBe("offline");

    // The key's stream is still open and never counted; switching on again is explicit.
    await setAvailability(owner, "online");
    await byKey.close();
    await new Promise((r) => setTimeout(r, 300));
    expect((await stored(memberId)).availability).toBe("online");
  });
});
