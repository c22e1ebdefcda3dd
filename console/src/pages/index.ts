// THE PAGE REGISTRY. A page is a folder (pages/<name>/ with page.tsx, its strings.ts and any
// .css) plus one line here: its path (`/x/*` hands the page everything below /x), its chunk
// (loaded the first time it is visited), its entry in the navigation (omit for none) and what the
// member needs to see it (a permission codename, "owner", a list of them that must all hold, or null
// for everyone). A page that first lists what another permission guards names that one too, so no
// member is offered a page the API then refuses. Order is the navigation's; the start page is the
// first one the member may see. A page that shows one record by its address names that address (`record`):
// another record's is a fresh page, never the last one's state under the new address.
import type { PageEntry } from "./types";

export const PAGES: PageEntry[] = [
  {
    path: "/assistants/*",
    record: "/assistants/:id",
    load: () => import("./assistants/page"),
    nav: { en: "Assistants", "zh-TW": "助理" },
    requires: "chatbot.view",
  },
  {
    path: "/knowledge-bases/*",
    // Its tabs (`/knowledge-bases/<id>/faqs`) are views of one base: only another base is a fresh page.
    record: "/knowledge-bases/:id/*",
    load: () => import("./knowledge-bases/page"),
    nav: { en: "Knowledge bases", "zh-TW": "知識庫" },
    requires: "knowledge_base.view",
  },
  {
    path: "/conversations/*",
    // No `record`: the open conversation is a view beside the list, which keeps its filters, pages and place; the
    // page follows the address's conversation itself (and the tab's one live stream is the organization's).
    load: () => import("./conversations/page"),
    nav: { en: "Conversations", "zh-TW": "對話" },
    requires: "conversation.view",
  },
  {
    path: "/contacts/*",
    record: "/contacts/:id",
    load: () => import("./contacts/page"),
    nav: { en: "Contacts", "zh-TW": "聯絡人" },
    requires: "contact.view",
  },
  {
    path: "/labels",
    load: () => import("./labels/page"),
    nav: { en: "Labels", "zh-TW": "標籤" },
    requires: "conversation.view",
  },
  {
    path: "/canned-responses",
    load: () => import("./canned-responses/page"),
    nav: { en: "Canned responses", "zh-TW": "罐頭回覆" },
    requires: "conversation.manage",
  },
  {
    path: "/statistics/*",
    load: () => import("./statistics/page"),
    nav: { en: "Statistics", "zh-TW": "統計" },
    requires: "statistics.view",
  },
  {
    path: "/webhooks/*",
    load: () => import("./webhooks/page"),
    nav: { en: "Webhooks", "zh-TW": "Webhook" },
    // A webhook belongs to an inbox: the page starts from the inboxes' list.
    requires: ["webhook.manage", "inbox.view"],
  },
  {
    path: "/web-chats/*",
    record: "/web-chats/:id",
    load: () => import("./web-chats/page"),
    nav: { en: "Web chat", "zh-TW": "網頁聊天" },
    requires: "inbox.view",
  },
  {
    path: "/channels/*",
    record: "/channels/:inboxId",
    load: () => import("./channels/page"),
    nav: { en: "Channels", "zh-TW": "通路" },
    requires: "inbox.view",
  },
  {
    path: "/tools/*",
    load: () => import("./tools/page"),
    nav: { en: "Tools and connectors", "zh-TW": "工具與連接器" },
    requires: "tool.view",
  },
  {
    path: "/skills",
    load: () => import("./skills/page"),
    nav: { en: "Skills", "zh-TW": "技能" },
    requires: "skill.view",
  },
  {
    path: "/sql-databases/*",
    record: "/sql-databases/:id",
    load: () => import("./sql-databases/page"),
    nav: { en: "SQL databases", "zh-TW": "SQL 資料庫" },
    requires: "sql_database.view",
  },
  {
    path: "/batch-qa",
    load: () => import("./batch-qa/page"),
    nav: { en: "Batch QA", "zh-TW": "批次問答" },
    // A run belongs to a web chat: the page starts from the web chats' list.
    requires: ["chatbot.view", "inbox.view"],
  },
  {
    path: "/members/*",
    record: "/members/groups/:id",
    load: () => import("./members/page"),
    nav: { en: "Members", "zh-TW": "成員" },
    requires: "member.view",
  },
  {
    path: "/organization",
    load: () => import("./organization/page"),
    nav: { en: "Organization", "zh-TW": "組織" },
    requires: "organization.manage",
  },
  {
    path: "/models",
    load: () => import("./models/page"),
    nav: { en: "Models and API keys", "zh-TW": "模型與 API 金鑰" },
    requires: null,
  },
  // Reached from the banner's name, not the menu.
  { path: "/profile", load: () => import("./profile/page"), requires: null },
];
