import { defineStrings } from "../../i18n";

export const t = defineStrings({
  en: {
    title: "Sign in to the console",
    intro: "Manage your assistants, their knowledge and your organization.",
    method: "How to sign in",
    withPassword: "E-mail and password",
    withKey: "Use an API key",
    email: "E-mail",
    password: "Password",
    apiKey: "API key",
    apiKeyHint: "For the administrator created at first start, say. The key opens a session and is not kept by the console.",
    submit: "Sign in",
    signingIn: "Signing in…",
    invalidCredentials: "The e-mail and password, or the API key, were not accepted.",
    signedIn: "Signed in.",
  },
  "zh-TW": {
    title: "登入管理控制台",
    intro: "管理您的助理、知識庫與組織。",
    method: "登入方式",
    withPassword: "電子郵件與密碼",
    withKey: "使用 API 金鑰",
    email: "電子郵件",
    password: "密碼",
    apiKey: "API 金鑰",
    apiKeyHint: "例如首次啟動時建立的管理員。金鑰僅用來建立登入階段，控制台不會保存。",
    submit: "登入",
    signingIn: "登入中…",
    invalidCredentials: "電子郵件與密碼或 API 金鑰未通過驗證。",
    signedIn: "已登入。",
  },
});
