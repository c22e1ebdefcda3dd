import { and, eq, ne } from "drizzle-orm";
import type { Bindings, Db } from "../../env";
import { type MEMBER_AVAILABILITIES, members } from "../../db/schema";
import { publishInboxEvents } from "../conversation/inbox-events";
import { assignWaiting } from "./round-robin";
import { dataParts } from "../shards/parts";
import { enqueueDeliveries } from "../webhooks/emit";

const PRESENCE_GRACE_MS = 30_000;
/** `PRESENCE_GRACE_MS` (durable-objects/inbox-events.ts): how long a member without a console tab stays as they were.
 * */
export const presenceGraceMs = (env: Bindings) =>
  env.PRESENCE_GRACE_MS === undefined || Number.isNaN(Number(env.PRESENCE_GRACE_MS))
    ? PRESENCE_GRACE_MS
    : Number(env.PRESENCE_GRACE_MS);

export type Availability = (typeof MEMBER_AVAILABILITIES)[number];

export async function availabilityOf(db: Db, memberId: string): Promise<Availability> {
  const [row] = await db.select({ availability: members.availability }).from(members).where(eq(members.id, memberId));
  return row?.availability ?? "offline";
}

/**
 * Sets a member's availability. Coming online assigns them the oldest conversations waiting in the
 * round-robin inboxes they serve, up to their capacity, before this returns (so the console that
 * switched sees them at once), and tells the live inbox.
 */
export async function setAvailability(
  env: Bindings,
  db: Db,
  organizationId: string,
  memberId: string,
  availability: Availability,
  now = Date.now(),
): Promise<Availability> {
  await db
    .update(members)
    .set({ availability })
    .where(and(eq(members.id, memberId), eq(members.organizationId, organizationId)));
  if (availability === "online") {
    const deliveries: string[] = [];
    const events = await assignWaiting(
      db,
      await dataParts(env, organizationId),
      organizationId,
      memberId,
      now,
      deliveries,
    );
    if (events.length) await publishInboxEvents(env, organizationId, ...events);
    if (deliveries.length) await enqueueDeliveries(env, deliveries, organizationId);
  }
  return availability;
}

/**
 * The member's last console tab has closed (durable-objects/inbox-events.ts counts their open
 * streams): they are offline, so automatic assignment passes them by until they switch back on.
 */
export async function wentAway(db: Db, organizationId: string, userId: string): Promise<void> {
  await db
    .update(members)
    .set({ availability: "offline" })
    .where(
      and(eq(members.organizationId, organizationId), eq(members.userId, userId), ne(members.availability, "offline")),
    );
}

/** A member's own capacity (null: each inbox's). */
export async function setCapacity(db: Db, memberId: string, capacity: number | null): Promise<void> {
  await db.update(members).set({ capacity }).where(eq(members.id, memberId));
}

/**
 * `stream` as it is handed to a reader, calling `ended` once when the reader cancels it or it
 * ends (the member's console tab has closed: durable-objects/inbox-events.ts, `left`).
 */
export function whileOpen(stream: ReadableStream<Uint8Array>, ended: () => void): ReadableStream<Uint8Array> {
  const reader = stream.getReader();
  let done = false;
  const end = () => {
    if (done) return;
    done = true;
    ended();
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const chunk = await reader.read();
        if (chunk.done) {
          end();
          controller.close();
        } else controller.enqueue(chunk.value);
      } catch (err) {
        end();
        throw err;
      }
    },
    cancel(reason) {
      end();
      return reader.cancel(reason);
    },
  });
}
