// Strings of the reply box's private notes and canned responses (kept apart from strings.ts, which
// the rest of the inbox shares).
import { defineStrings } from "../../i18n";

export const t = defineStrings({
  en: {
    mode: "Write",
    modeReply: "Reply",
    modeNote: "Private note",
    note: "Private note for the team",
    noteHint: "Only your team sees notes; the visitor never does.",
    addNote: "Add note",
    noteSaved: "Private note added.",
    privateNote: "Private note",
    cannedHint: "Type / for canned responses.",
    cannedList: "Canned responses",
    cannedCount:
      "{n, plural, one {# canned response} other {# canned responses}}; use the arrow keys and Enter to insert one.",
    cannedInserted: "Inserted /{code}.",
    attach: "Attach files",
    files: "Files to send",
    removeFile: "Remove {name}",
    uploading: "Uploading {name}",
    attached: "{name} attached.",
    attachFailed: "{name} was not attached: {detail}",
  },
  "zh-TW": {
    mode: "撰寫",
    modeReply: "回覆",
    modeNote: "私人備註",
    note: "給團隊的私人備註",
    noteHint: "只有您的團隊看得到備註；訪客永遠看不到。",
    addNote: "新增備註",
    noteSaved: "已新增私人備註。",
    privateNote: "私人備註",
    cannedHint: "輸入 / 以使用罐頭回覆。",
    cannedList: "罐頭回覆",
    cannedCount: "{n} 則罐頭回覆；用方向鍵與 Enter 插入。",
    cannedInserted: "已插入 /{code}。",
    attach: "附加檔案",
    files: "要傳送的檔案",
    removeFile: "移除 {name}",
    uploading: "正在上傳 {name}",
    attached: "已附加 {name}。",
    attachFailed: "{name} 未能附加：{detail}",
  },
});
