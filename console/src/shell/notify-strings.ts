import { defineStrings } from "../i18n";

export const t = defineStrings({
  en: {
    unreadConversations: "{n, plural, one {# unread conversation} other {# unread conversations}}",
    notify: "Notify me",
    notifyOn: "Notifications on",
    notifyHint:
      "A browser notification and a short sound when a conversation waits for a person or is assigned to you.",
    notifyDenied: "The browser blocks notifications for this site: allow them in its site settings, then try again.",
    notifyUnsupported: "This browser cannot show notifications.",
    waitingTitle: "A visitor is waiting for a person",
    assignedTitle: "A conversation was assigned to you",
    untitled: "Untitled conversation",
  },
  "zh-TW": {
    unreadConversations: "{n} 則未讀對話",
    notify: "通知我",
    notifyOn: "通知已開啟",
    notifyHint: "有對話等待真人或指派給您時，顯示瀏覽器通知並播放短促提示音。",
    notifyDenied: "瀏覽器已封鎖本網站的通知：請在網站設定中允許後再試一次。",
    notifyUnsupported: "此瀏覽器無法顯示通知。",
    waitingTitle: "有訪客正在等待真人客服",
    assignedTitle: "有對話指派給您",
    untitled: "未命名對話",
  },
});
