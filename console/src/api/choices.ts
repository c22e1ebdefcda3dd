// The organization's records a form offers to pick from (an assistant's knowledge bases, a record's
// groups, an inbox's assistant...), loaded the one way: up to 100, as `{id, name}`, and null when the
// member may not list them (a permission the list needs, or the API's 403). A form then offers only what its
// record already has; any other failure is the load's error.
import { can } from "../shell/session";
import { ApiProblem, api, unwrap } from "./client";

export type Choice = { id: string; name: string };

const query = { pageSize: 100 };

type Named = { id: string; name: string | null; displayName?: string | null };

const lists = {
  assistants: () => unwrap(api.GET("/api/v1/chatbots/", { params: { query } })),
  knowledgeBases: () => unwrap(api.GET("/api/v1/knowledge-bases/", { params: { query } })),
  tools: () => unwrap(api.GET("/api/v1/tools/", { params: { query } })),
  /** The platform's tools every organization may use (the tool list leaves them out). */
  globalTools: () => unwrap(api.GET("/api/v1/tools/", { params: { query: { ...query, isGlobal: "true" } } })),
  skills: () => unwrap(api.GET("/api/v1/skills/", { params: { query } })),
  inboxes: () => unwrap(api.GET("/api/v1/inboxes/", { params: { query } })),
  contacts: () => unwrap(api.GET("/api/v1/contacts/", { params: { query } })),
  labels: () => unwrap(api.GET("/api/v1/labels/", { params: { query } })),
  groups: (organizationPk: string) =>
    unwrap(api.GET("/api/v1/organizations/{organizationPk}/groups/", { params: { path: { organizationPk }, query } })),
} satisfies Record<string, (organizationId: string) => Promise<{ results: Named[] }>>;

export type ChoiceKind = keyof typeof lists;

/**
 * The permission a list needs, where its route names one (the others show what the member can see): without it the
 * list is not asked for, so a member's page makes no request the API would refuse.
 */
const NEEDS: Partial<Record<ChoiceKind, string>> = {
  contacts: "contact.view",
  groups: "group.view",
  inboxes: "inbox.view",
  labels: "conversation.view",
};

/** The records of `kind` the member may pick, or null when they may not list them. */
export async function choicesOf(kind: ChoiceKind, organizationId: string): Promise<Choice[] | null> {
  if (!can(NEEDS[kind])) return null;
  try {
    const page: { results: Named[] } = await lists[kind](organizationId);
    return page.results.map((r) => ({ id: r.id, name: r.displayName || r.name || r.id }));
  } catch (err) {
    if (err instanceof ApiProblem && err.status === 403) return null;
    throw err;
  }
}
