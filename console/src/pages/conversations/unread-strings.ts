import { defineStrings } from "../../i18n";

export const t = defineStrings({
  en: {
    unread: "{n} unread",
    unreadInboxes: "Unread by inbox",
    showInbox: "{name}: {n, plural, one {# unread conversation} other {# unread conversations}}, show them",
  },
  "zh-TW": {
    unread: "{n} 則未讀",
    unreadInboxes: "各收件匣的未讀",
    showInbox: "{name}：{n} 則未讀對話，顯示這些對話",
  },
});
