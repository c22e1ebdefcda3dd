import { api, otherwise, unwrap, type BodyOf } from "../../api/client";
import { getInbox } from "../../components/api";

export const PAGE_SIZE = 20;

export const listWebChats = (page: number) =>
  unwrap(api.GET("/api/v1/web-chats/", { params: { query: { page, pageSize: PAGE_SIZE } } }));

/** A web chat, with what its designer shows beside it from its inbox (null: the inbox could not be read). */
export async function loadWebChat(id: string) {
  const chat = await unwrap(api.GET("/api/v1/web-chats/{id}/", { params: { path: { id } } }));
  // The assistant's name is what the widget shows as the sender; without the inbox it is the web chat's.
  const inbox = await getInbox(chat.inbox.id).catch(otherwise(null));
  return { chat, assistantName: inbox?.chatbot?.name ?? null, businessHours: inbox ? inbox.businessHours : undefined };
}

/** Saves some of a web chat's settings; answers the web chat as saved. */
export const patchWebChat = (id: string, body: BodyOf<"/api/v1/web-chats/{id}/", "patch">) =>
  unwrap(api.PATCH("/api/v1/web-chats/{id}/", { params: { path: { id } }, body }));

/** A new identity secret (the old one stops working); shown once. */
export const rotateIdentitySecret = (id: string) =>
  unwrap(api.POST("/api/v1/web-chats/{id}/identity-secret/", { params: { path: { id } } }));

/** Checks the custom domain's DNS now: the web chat as updated, with what was found. */
export const verifyCustomDomain = (id: string) =>
  unwrap(api.POST("/api/v1/web-chats/{id}/custom-domain/verify/", { params: { path: { id } } }));
