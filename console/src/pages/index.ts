// THE PAGE REGISTRY. A page is a folder (pages/<name>/ with page.tsx, its strings.ts and any
// .css) plus one line here: its path (`/x/*` hands the page everything below /x), its chunk
// (loaded the first time it is visited), its entry in the navigation (omit for none) and what the
// member needs to see it (a permission codename, "owner", or null for everyone). Order is the
// navigation's; the start page is the first one the member may see.
import type { PageEntry } from "./types";

export const PAGES: PageEntry[] = [
  { path: "/models", load: () => import("./models/page"), nav: { en: "Models and API keys", "zh-TW": "模型與 API 金鑰" }, requires: null },
  { path: "/conversations/*", load: () => import("./inbox/page"), nav: { en: "Conversations", "zh-TW": "對話" }, requires: "conversation.view" },
];
