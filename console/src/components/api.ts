// The kit's requests: what its shared components (the group picker, an inbox's settings, uploads) and the
// shell's availability switch read and write.
import { api, unwrap, type BodyOf, type Schemas } from "../api/client";

export type Inbox = Schemas["Inbox"];
export type NewInbox = BodyOf<"/api/v1/inboxes/", "post">;

export type SignRequest = BodyOf<"/api/v1/upload-presigned-url/", "post">;

/** The signed-in member of the organization (with their own groups). */
export const currentMember = (organizationPk: string) =>
  unwrap(api.GET("/api/v1/organizations/{organizationPk}/members/current/", { params: { path: { organizationPk } } }));

type Availability = BodyOf<"/api/v1/organizations/{organizationPk}/members/current/availability/", "put">;

/** The signed-in member's availability in the organization (online members are given conversations). */
export const myAvailability = (organizationPk: string) =>
  unwrap(
    api.GET("/api/v1/organizations/{organizationPk}/members/current/availability/", {
      params: { path: { organizationPk } },
    }),
  );

export const setMyAvailability = (organizationPk: string, availability: Availability["availability"]) =>
  unwrap(
    api.PUT("/api/v1/organizations/{organizationPk}/members/current/availability/", {
      params: { path: { organizationPk } },
      body: { availability },
    }),
  );

/** A new inbox (a web one comes with its web chat, named in `channel`). */
export const createInbox = (body: NewInbox) => unwrap(api.POST("/api/v1/inboxes/", { body }));

export const getInbox = (id: string) => unwrap(api.GET("/api/v1/inboxes/{id}/", { params: { path: { id } } }));

/** Changes some of an inbox's settings; answers the inbox as saved. */
export const patchInbox = (id: string, body: BodyOf<"/api/v1/inboxes/{id}/", "patch">) =>
  unwrap(api.PATCH("/api/v1/inboxes/{id}/", { params: { path: { id } }, body }));

/** Where and how to send a file (a POST policy or a PUT with its headers), signed for a record's field. */
export const signUpload = (body: SignRequest) => unwrap(api.POST("/api/v1/upload-presigned-url/", { body }));
