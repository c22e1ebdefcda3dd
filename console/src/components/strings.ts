import { defineStrings } from "../i18n";

export const t = defineStrings({
  en: {
    loading: "Loading…",
    cancel: "Cancel",
    close: "Close",
    copy: "Copy",
    copied: "Copied to the clipboard.",
    copyFailed: "Could not copy; select the text and copy it yourself.",
    confirm: "Confirm",
    previous: "Previous",
    next: "Next",
    pageOf: "Page {page} of {pages}",
    pagination: "Pagination",
    retry: "Try again",
    networkError: "The service could not be reached. Check the connection and try again.",
  },
  "zh-TW": {
    loading: "載入中…",
    cancel: "取消",
    close: "關閉",
    copy: "複製",
    copied: "已複製到剪貼簿。",
    copyFailed: "無法複製，請自行選取文字後複製。",
    confirm: "確認",
    previous: "上一頁",
    next: "下一頁",
    pageOf: "第 {page} 頁，共 {pages} 頁",
    pagination: "分頁",
    retry: "重試",
    networkError: "無法連線到服務，請檢查網路後重試。",
  },
});
