import { defineStrings } from "../../i18n";

/**
 * The words the contacts page shares with a conversation's contact panel (pages/conversations/contact-panel.tsx): the
 * inbox's chunk loads these, not the page's whole table.
 */
export const SHARED = {
  en: {
    email: "E-mail",
    phoneNumber: "Phone",
    tags: "Tags",
    customFields: "Custom fields",
    noCustomFields: "No custom fields.",
    untitled: "(untitled)",
    status_open: "Open",
    status_queued: "Queued",
    status_resolved: "Resolved",
    hasConversations:
      "This contact still has conversations, so it cannot be deleted. Their conversations keep who wrote them; " +
      "remove what you no longer want from the contact's fields instead.",
  },
  "zh-TW": {
    email: "電子郵件",
    phoneNumber: "電話",
    tags: "標記",
    customFields: "自訂欄位",
    noCustomFields: "沒有自訂欄位。",
    untitled: "（無標題）",
    status_open: "進行中",
    status_queued: "排隊中",
    status_resolved: "已解決",
    hasConversations:
      "此聯絡人仍有對話，因此無法刪除。對話會保留撰寫者；若有不想保留的資料，請改為從聯絡人的欄位中移除。",
  },
};

export const t = defineStrings(SHARED);
