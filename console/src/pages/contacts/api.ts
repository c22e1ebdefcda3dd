import { ApiProblem, api, unwrap, type Schemas } from "../../api/client";
import { t } from "./shared-strings";

export type Contact = Schemas["Contact"];
export type ContactWrite = Schemas["ContactUpdate"];
export type Conversation = Schemas["Conversation"];

export const PAGE_SIZE = 20;

/** A page of the organization's contacts, newest first; `search` is the API's full text (name, e-mail, phone,
 * source id, custom fields). */
export const listContacts = (page: number, search: string) =>
  unwrap(
    api.GET("/api/v1/contacts/", { params: { query: { page, pageSize: PAGE_SIZE, ...(search ? { search } : {}) } } }),
  );

export const getContact = (id: string) => unwrap(api.GET("/api/v1/contacts/{id}/", { params: { path: { id } } }));

export const createContact = (body: ContactWrite & { name: string }) => unwrap(api.POST("/api/v1/contacts/", { body }));

/** Writes the fields given; the others keep their value (`metadata`, when given, replaces the whole object). */
export const updateContact = (id: string, body: ContactWrite) =>
  unwrap(api.PATCH("/api/v1/contacts/{id}/", { params: { path: { id } }, body }));

/**
 * Deletes a contact. The API refuses one that still has conversations (400 `contact_has_conversations`, its detail in
 * English): that refusal is said in the console's language, with what to do instead.
 */
export async function deleteContact(id: string) {
  try {
    await unwrap(api.DELETE("/api/v1/contacts/{id}/", { params: { path: { id } } }));
  } catch (err) {
    if (err instanceof ApiProblem && err.code === "contact_has_conversations")
      throw new ApiProblem(err.status, t("hasConversations"), err.code);
    throw err;
  }
}

/** The contact's conversations, newest first (`pageSize` of them); `more` when there are others. */
export async function contactConversations(contact: string, pageSize: number) {
  const page = await unwrap(api.GET("/api/v1/conversations/", { params: { query: { contact, pageSize } } }));
  return { results: page.results, more: !!page.next };
}
