/**
 * The fixed permission catalogue (CONTRACT section 4). Ids are stable: groups store them.
 * `x.manage` implies `x.view`.
 */
export const PERMISSIONS = [
  { id: "6a1f0d5e-0001-4000-8000-000000000001", codename: "organization.manage", name: "Manage organization settings" },
  { id: "6a1f0d5e-0001-4000-8000-000000000002", codename: "member.view", name: "View members" },
  { id: "6a1f0d5e-0001-4000-8000-000000000003", codename: "member.manage", name: "Manage members" },
  { id: "6a1f0d5e-0001-4000-8000-000000000004", codename: "group.view", name: "View groups" },
  { id: "6a1f0d5e-0001-4000-8000-000000000005", codename: "group.manage", name: "Manage groups and their members" },
  { id: "6a1f0d5e-0001-4000-8000-000000000006", codename: "chatbot.view", name: "View assistants" },
  { id: "6a1f0d5e-0001-4000-8000-000000000007", codename: "chatbot.manage", name: "Manage assistants" },
  { id: "6a1f0d5e-0001-4000-8000-000000000008", codename: "knowledge_base.view", name: "View knowledge bases" },
  { id: "6a1f0d5e-0001-4000-8000-000000000009", codename: "knowledge_base.manage", name: "Manage knowledge bases" },
  { id: "6a1f0d5e-0001-4000-8000-00000000000a", codename: "contact.view", name: "View contacts" },
  { id: "6a1f0d5e-0001-4000-8000-00000000000b", codename: "contact.manage", name: "Manage contacts" },
  {
    id: "6a1f0d5e-0001-4000-8000-00000000000c",
    codename: "conversation.view",
    name: "View conversations and messages",
  },
  {
    id: "6a1f0d5e-0001-4000-8000-00000000000d",
    codename: "conversation.manage",
    name: "Reply to and hand off conversations",
  },
  { id: "6a1f0d5e-0001-4000-8000-00000000000e", codename: "inbox.view", name: "View inboxes and web chats" },
  { id: "6a1f0d5e-0001-4000-8000-00000000000f", codename: "inbox.manage", name: "Manage inboxes and web chats" },
  { id: "6a1f0d5e-0001-4000-8000-000000000010", codename: "tool.manage", name: "Manage tools and connectors" },
  { id: "6a1f0d5e-0001-4000-8000-000000000011", codename: "skill.manage", name: "Manage skills" },
  { id: "6a1f0d5e-0001-4000-8000-000000000012", codename: "sql_database.manage", name: "Manage SQL databases" },
  {
    id: "6a1f0d5e-0001-4000-8000-000000000013",
    codename: "statistics.view",
    name: "View usage statistics and records",
  },
  { id: "6a1f0d5e-0001-4000-8000-000000000014", codename: "webhook.manage", name: "Manage inbox webhooks" },
  { id: "6a1f0d5e-0001-4000-8000-000000000015", codename: "tool.view", name: "View tools and their execution records" },
  { id: "6a1f0d5e-0001-4000-8000-000000000016", codename: "skill.view", name: "View skills" },
  { id: "6a1f0d5e-0001-4000-8000-000000000017", codename: "sql_database.view", name: "View SQL databases" },
  { id: "6a1f0d5e-0001-4000-8000-000000000018", codename: "label.manage", name: "Manage conversation labels" },
  { id: "6a1f0d5e-0001-4000-8000-0000000000c1", codename: "canned_response.manage", name: "Manage canned responses" },
] as const;

export type Permission = (typeof PERMISSIONS)[number]["codename"];

const BY_ID = new Map<string, Permission>(PERMISSIONS.map((p) => [p.id, p.codename]));
export const permissionCodename = (id: string) => BY_ID.get(id);
export const isPermissionId = (id: string) => BY_ID.has(id);

/** `x.manage` grants `x.view` as well. */
export function grants(held: ReadonlySet<string>, wanted: Permission): boolean {
  if (held.has(wanted)) return true;
  return wanted.endsWith(".view") && held.has(wanted.replace(/\.view$/, ".manage"));
}
