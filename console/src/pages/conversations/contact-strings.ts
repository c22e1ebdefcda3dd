import { defineStrings } from "../../i18n";

/** The contact panel of a conversation (contact-panel.tsx). */
export const t = defineStrings({
  en: {
    contact: "Contact",
    showContact: "Contact details",
    anonymous: "Anonymous visitor",
    anonymousHint: "This conversation has no contact: its visitor never said who they are.",
    openContact: "Open the contact's page",
    channel: "Channel",
    channelOf: "{inbox} ({type})",
    web: "Web chat",
    api: "API",
    otherConversations: "Their other conversations",
    noOtherConversations: "No other conversations.",
    allTheirConversations: "All their conversations in the inbox",
  },
  "zh-TW": {
    contact: "聯絡人",
    showContact: "聯絡人資料",
    anonymous: "匿名訪客",
    anonymousHint: "此對話沒有聯絡人：訪客從未表明身分。",
    openContact: "開啟聯絡人頁面",
    channel: "通路",
    channelOf: "{inbox}（{type}）",
    web: "網頁聊天",
    api: "API",
    otherConversations: "此人的其他對話",
    noOtherConversations: "沒有其他對話。",
    allTheirConversations: "在收件匣查看此人的所有對話",
  },
});
