import { describe, expect, it } from "vitest";
import { ApiError } from "../../src/lib/errors";
import { rejectionOf } from "../support/errors";
import {
  claimKey,
  condenseEvents,
  forgetExpiredKeys,
  IDEMPOTENCY_TTL_MS,
  saveOutcome,
  UNFINISHED_AFTER_MS,
} from "../../src/services/idempotency";
import { data, seedOwner } from "../harness";

// The key's life on its own clock: the routes are tested in test/routes/idempotency/.
const refusal = (p: Promise<unknown>) => rejectionOf(p, ApiError);

describe("an idempotency key", () => {
  it(
    "is under way, then unfinished after 10 minutes without an outcome; kept 24 hours once finished, then free " +
      "again and forgotten",
    async () => {
      const owner = await seedOwner();
      const scope = {
        organizationId: owner.organizationId,
        owner: `user:${crypto.randomUUID()}`,
        key: crypto.randomUUID(),
      };
      const t0 = Date.UTC(2026, 0, 1);
      const plane = await data(owner.organizationId);
      expect(await claimKey(plane, scope, "h1", t0)).toBeNull();
      expect(await refusal(claimKey(plane, scope, "h1", t0 + 1000))).toMatchObject({
        status: 409,
        code: "idempotency_in_progress",
        headers: { "Retry-After": "1" },
      });
      expect(await refusal(claimKey(plane, scope, "h1", t0 + UNFINISHED_AFTER_MS))).toMatchObject({
        status: 409,
        code: "idempotency_unfinished",
      });
      expect(await refusal(claimKey(plane, scope, "h2", t0 + 1000))).toMatchObject({
        status: 422,
        code: "idempotency_key_reused",
      });

      await saveOutcome(plane, scope, { status: 200, contentType: "application/json", body: '{"ok":true}' });
      expect(await claimKey(plane, scope, "h1", t0 + IDEMPOTENCY_TTL_MS - 1)).toEqual({
        status: 200,
        contentType: "application/json",
        body: '{"ok":true}',
      });
      // After 24 hours the key is free, for any request.
      expect(await claimKey(plane, scope, "h2", t0 + IDEMPOTENCY_TTL_MS + 1)).toBeNull();
      await forgetExpiredKeys(plane, t0 + 3 * IDEMPOTENCY_TTL_MS);
      expect(await claimKey(plane, scope, "h3", t0 + 3 * IDEMPOTENCY_TTL_MS)).toBeNull();
    },
  );

  it(
    "keeps a reply's events in a few: pings dropped, text deltas merged with the last id, other events as they " +
      "were",
    () => {
      const wire = [
        ": ping",
        'id: m:3\ndata: {"messageId":"m","content":"Hel","done":false}',
        'id: m:5\ndata: {"messageId":"m","content":"lo","done":false}',
        'event: tool_call\ndata: {"name":"x"}',
        'id: m:6\ndata: {"messageId":"m","content":"!","done":false}',
        'id: m:done\ndata: {"messageId":"m","content":"","done":true,"message":{"id":"m"}}',
        "",
      ].join("\n\n");
      expect(condenseEvents(wire)).toBe(
        [
          'id: m:5\ndata: {"messageId":"m","content":"Hello","done":false}',
          'event: tool_call\ndata: {"name":"x"}',
          'id: m:6\ndata: {"messageId":"m","content":"!","done":false}',
          'id: m:done\ndata: {"messageId":"m","content":"","done":true,"message":{"id":"m"}}',
          "",
        ].join("\n\n"),
      );
    },
  );
});
