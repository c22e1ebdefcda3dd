import { api, unwrap, type BodyOf } from "../../api/client";
import { getInbox, type Inbox } from "../../components/api";
import { isMessaging, PLATFORMS, type Channel } from "./platforms";

/**
 * Every messaging inbox of the organization. The API filters by one type only, so the pages are
 * read and web and API inboxes left out here (an organization has tens of inboxes, not thousands).
 */
export async function messagingInboxes(): Promise<Inbox[]> {
  const found: Inbox[] = [];
  for (let page = 1; page <= 20; page++) {
    const answer = await unwrap(api.GET("/api/v1/inboxes/", { params: { query: { page, pageSize: 100 } } }));
    found.push(...answer.results.filter((i) => isMessaging(i.channelType)));
    if (page * 100 >= answer.count) break;
  }
  return found;
}

export const getChannel = (inboxId: string) =>
  unwrap(api.GET("/api/v1/inboxes/{id}/channel/", { params: { path: { id: inboxId } } }));

/** An inbox with its channel. */
export async function inboxWithChannel(inboxId: string) {
  const [inbox, channel] = await Promise.all([getInbox(inboxId), getChannel(inboxId)]);
  return { inbox, channel };
}

/** Saves the channel's settings (only the credentials given change); answers the channel as saved. */
export const saveChannel = (inboxId: string, body: BodyOf<"/api/v1/inboxes/{id}/channel/", "put">) =>
  unwrap(api.PUT("/api/v1/inboxes/{id}/channel/", { params: { path: { id: inboxId } }, body }));

/** Connects the channel on its platform (webhook, subscription); a refusal is recorded in its status. */
export const connectChannel = (inboxId: string) =>
  unwrap(api.POST("/api/v1/inboxes/{id}/channel/connect/", { params: { path: { id: inboxId } } }));

/** Disconnects the channel: its credentials forgotten, the platform asked to remove its webhook where it can be. */
export const disconnectChannel = (inboxId: string) =>
  unwrap(api.DELETE("/api/v1/inboxes/{id}/channel/", { params: { path: { id: inboxId } } }));

/** A messaging inbox with its channel's status: null for a type not connectable yet, or when it could not be read. */
export type InboxWithStatus = Inbox & { status: Channel["status"] | null };

/**
 * Every messaging inbox with its channel's status, so the list says which are connected or failing without
 * opening each. One read per connectable inbox, side by side (tens of them, as above).
 */
export async function messagingInboxesWithStatus(): Promise<InboxWithStatus[]> {
  const inboxes = await messagingInboxes();
  return Promise.all(
    inboxes.map(async (inbox) => ({
      ...inbox,
      status: PLATFORMS[inbox.channelType]
        ? await getChannel(inbox.id).then(
            (c) => c.status,
            () => null,
          )
        : null,
    })),
  );
}
