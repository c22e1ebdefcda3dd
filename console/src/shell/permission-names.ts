// A permission as people read it, in the console's language: the members page's permission matrix and the page the
// shell shows a member who may not open one ("this page needs Inboxes and web chats: View") name them alike.
import { defineStrings } from "../i18n";

const t = defineStrings({
  en: {
    view: "View",
    manage: "Manage",
    owner: "Owner of the organization",
    "r.organization": "Organization settings",
    "r.member": "Members",
    "r.group": "Groups",
    "r.chatbot": "Assistants",
    "r.knowledge_base": "Knowledge bases",
    "r.contact": "Contacts",
    "r.conversation": "Conversations",
    "r.inbox": "Inboxes and web chats",
    "r.tool": "Tools and connectors",
    "r.skill": "Skills",
    "r.sql_database": "SQL databases",
    "r.statistics": "Statistics and records",
    "r.webhook": "Webhooks",
    "r.label": "Labels",
    "r.canned_response": "Canned responses",
  },
  "zh-TW": {
    view: "檢視",
    manage: "管理",
    owner: "組織擁有者",
    "r.organization": "組織設定",
    "r.member": "成員",
    "r.group": "群組",
    "r.chatbot": "助理",
    "r.knowledge_base": "知識庫",
    "r.contact": "聯絡人",
    "r.conversation": "對話",
    "r.inbox": "收件匣與網頁聊天",
    "r.tool": "工具與連接器",
    "r.skill": "技能",
    "r.sql_database": "SQL 資料庫",
    "r.statistics": "統計與紀錄",
    "r.webhook": "Webhook",
    "r.label": "標籤",
    "r.canned_response": "罐頭回覆",
  },
});

export const ACTIONS = ["view", "manage"] as const;

/** "chatbot.manage" -> ["chatbot", "manage"]. */
export const splitPermission = (codename: string) => codename.split(".") as [string, string];

/** A resource of the catalogue ("inbox") by its name ("Inboxes and web chats"). */
export function resourceLabel(resource: string) {
  const key = `r.${resource}` as Parameters<typeof t>[0];
  // A resource the catalogue gained after these strings has no entry (t gives undefined): its codename, not nothing.
  return t(key) || resource;
}

/** An action ("view", "manage") by its name; another action as it is written. */
export const actionLabel = (action: string) =>
  (ACTIONS as readonly string[]).includes(action) ? t(action as (typeof ACTIONS)[number]) : action;

/** A permission by its resource and action ("Assistants: Manage"); `owner`, what only owners may do, by that. */
export function permissionLabel(codename: string) {
  if (codename === "owner") return t("owner");
  const [resource, action] = splitPermission(codename);
  return `${resourceLabel(resource)}: ${actionLabel(action)}`;
}
