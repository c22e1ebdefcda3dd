// The directory's side of one organization over several shards (services/shards/parts.ts; docs/scale.md §5, "One
// organization over several shards"): which part holds a conversation, by the time in its id, and every part.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ApiError } from "../../src/lib/errors";
import { uuidv7 } from "../../src/lib/ids";
import { SHARDS } from "../../src/services/shards";
import { planeState } from "../../src/services/shards/plane-router";
import {
  addDataPart,
  conversationShard,
  dataParts,
  PART_LEAD_MS,
  partOf,
  partShards,
  partsOf,
  uuidv7Time,
} from "../../src/services/shards/parts";
import { deleteOrganization } from "../../src/services/organizations";
import { db, fromBeforeTheShards, seedOwner } from "../harness";
import { uuidv7At } from "../support/ids";

async function refusal(attempt: Promise<unknown>): Promise<{ status: number; detail: string }> {
  const err = await attempt.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  const { status, message } = err as ApiError;
  return { status, detail: message };
}

describe("an organization's data parts", () => {
  it("reads a UUID v7's time, and nothing from another id", () => {
    for (const at of [0, 1, 1_764_000_000_000, 2 ** 48 - 1]) expect(uuidv7Time(uuidv7At(at))).toBe(at);
    const now = Date.now();
    expect(uuidv7Time(uuidv7())).toBeGreaterThanOrEqual(now);
    expect(uuidv7Time(crypto.randomUUID())).toBeNull();
    expect(uuidv7Time("not-an-id")).toBeNull();
  });

  it("puts a conversation in the latest part at or before its id's time, else the organization's shard", () => {
    const parts = [
      { from: 1_000, shard: "CONVERSATIONS_2" as const },
      { from: 5_000, shard: "CONVERSATIONS_1" as const },
    ];
    expect(partOf("CONVERSATIONS_1", parts, uuidv7At(999))).toBe("CONVERSATIONS_1");
    expect(partOf("CONVERSATIONS_1", parts, uuidv7At(1_000))).toBe("CONVERSATIONS_2");
    expect(partOf("CONVERSATIONS_1", parts, uuidv7At(4_999))).toBe("CONVERSATIONS_2");
    expect(partOf("CONVERSATIONS_1", parts, uuidv7At(5_000))).toBe("CONVERSATIONS_1");
    expect(partOf("CONVERSATIONS_1", parts, crypto.randomUUID())).toBe("CONVERSATIONS_1");
    expect(partOf("CONVERSATIONS_2", [], uuidv7())).toBe("CONVERSATIONS_2");
    // In whatever order the parts come.
    expect(partOf("CONVERSATIONS_1", [...parts].reverse(), uuidv7At(4_999))).toBe("CONVERSATIONS_2");
    expect(partOf("CONVERSATIONS_1", [...parts].reverse(), uuidv7At(5_000))).toBe("CONVERSATIONS_1");
  });

  it("holds every conversation of an organization with one part in its data plane", async () => {
    const owner = await seedOwner();
    const { shard: home } = await planeState(env, owner.organizationId, true);
    expect(await partsOf(env, owner.organizationId)).toEqual([]);
    expect(await conversationShard(env, owner.organizationId, uuidv7At(Date.now() + 86_400_000))).toBe(home);
    expect(await partShards(env, owner.organizationId)).toEqual([home]);
    expect(await dataParts(env, owner.organizationId)).toHaveLength(1);
  });

  it("sends conversations made from a new part's start there, and lists the parts newest first", async () => {
    const owner = await seedOwner();
    const { shard: home } = await planeState(env, owner.organizationId, true);
    const other = SHARDS.find((s) => s !== home)!;
    const now = Date.now();
    const from = now + PART_LEAD_MS + 1_000;
    expect(await addDataPart(env, owner.organizationId, other, from, now)).toEqual({ from, shard: other });
    // Known at once in this isolate.
    expect(await partsOf(env, owner.organizationId)).toEqual([{ from, shard: other }]);
    // Not uuidv7(): its clock never goes back, and files of this project share it (`isolate: false`), so a test that
    // made ids at a later time leaves it ahead.
    expect(await conversationShard(env, owner.organizationId, uuidv7At(now))).toBe(home);
    expect(await conversationShard(env, owner.organizationId, uuidv7At(from - 1))).toBe(home);
    expect(await conversationShard(env, owner.organizationId, uuidv7At(from))).toBe(other);
    expect(await partShards(env, owner.organizationId)).toEqual([other, home]);
    expect(await dataParts(env, owner.organizationId)).toHaveLength(2);

    // A third part back in the first shard: both shards listed once, the newest part's first.
    const later = from + 86_400_000;
    await addDataPart(env, owner.organizationId, home, later, now);
    expect(await conversationShard(env, owner.organizationId, uuidv7At(later + 5))).toBe(home);
    expect(await conversationShard(env, owner.organizationId, uuidv7At(later - 5))).toBe(other);
    expect(await partShards(env, owner.organizationId)).toEqual([home, other]);

    // The organization's delete takes its parts with it.
    await (await deleteOrganization(env, db(), owner.organizationId))();
    const left = await env.DB.prepare("SELECT count(*) AS n FROM organization_parts WHERE organization_id = ?1")
      .bind(owner.organizationId)
      .first<number>("n");
    expect(left).toBe(0);
  });

  it("refuses a part too soon, not after the last, in an unknown or the same shard, or in DB", async () => {
    const owner = await seedOwner();
    const { shard: home } = await planeState(env, owner.organizationId, true);
    const other = SHARDS.find((s) => s !== home)!;
    const now = Date.now();
    const from = now + PART_LEAD_MS;
    expect(await refusal(addDataPart(env, owner.organizationId, "CONVERSATIONS_9", from, now))).toEqual({
      status: 400,
      detail: expect.stringContaining("No shard CONVERSATIONS_9"),
    });
    expect(await refusal(addDataPart(env, owner.organizationId, other, from - 1, now))).toMatchObject({ status: 400 });
    expect(await refusal(addDataPart(env, owner.organizationId, home, from, now))).toEqual({
      status: 409,
      detail: `The organization's newest conversations are in ${home} already.`,
    });
    await addDataPart(env, owner.organizationId, other, from, now);
    expect(await refusal(addDataPart(env, owner.organizationId, home, from, now))).toMatchObject({ status: 400 });
    expect(await partsOf(env, owner.organizationId)).toEqual([{ from, shard: other }]);

    const before = await seedOwner();
    await fromBeforeTheShards(before.organizationId);
    expect(await refusal(addDataPart(env, before.organizationId, other, from, now))).toEqual({
      status: 409,
      detail: "The organization's data plane is in DB: move it first.",
    });
    expect(await partsOf(env, before.organizationId)).toEqual([]);
    expect(await conversationShard(env, before.organizationId, uuidv7())).toBeNull();
  });
});
