// The organization's live inbox as a member reads it (`GET /organizations/{id}/conversation-events/`): the events of
// its hub (durable-objects/inbox-events.ts), for as long as the reader may still read them.
import type { Bindings, Db, Principal } from "../../env";
import { presenceGraceMs, whileOpen } from "../assignment/availability";
import { endedWhen } from "../sse";
import { recheckMs, streamAccessLost } from "../stream-access";
import { inboxEventsObject, streamOpened } from "./inbox-events";

/**
 * The live inbox stream of the organization for `principal`, ended once they lose `conversation.view` or their
 * credential (streamAccessLost, asked again every recheckMs). A console tab (the session cookie) counts as the member
 * being there (presence: services/assignment) until the stream closes (the hub told in `waitUntil`).
 */
export async function inboxEventStream(
  env: Bindings,
  db: Db,
  waitUntil: (p: Promise<unknown>) => void,
  principal: Principal,
  organizationId: string,
): Promise<ReadableStream<Uint8Array>> {
  const presence = principal.session
    ? { organizationId, userId: principal.userId, graceMs: presenceGraceMs(env) }
    : undefined;
  const hub = inboxEventsObject(env, organizationId);
  const events = await hub.subscribe(presence);
  streamOpened(organizationId);
  const stream = endedWhen(
    events,
    () => streamAccessLost(db, principal, organizationId, "conversation.view"),
    recheckMs(env),
  );
  return presence ? whileOpen(stream, () => waitUntil(hub.left(presence))) : stream;
}
