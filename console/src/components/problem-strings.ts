import { defineStrings } from "../i18n";

/**
 * What the API's refusals mean, by their stable `code`, for a language other than the API's: its `detail` is English
 * (CONTRACT section 2), so the console leads with these words and keeps the detail beneath (ErrorAlert). Codes a page
 * says in its own words (a contact that still has conversations) are left to it.
 */
const TABLES = {
  en: {
    not_authenticated: "Your sign-in has ended. Sign in again.",
    permission_denied: "You do not have permission for this.",
    not_found: "It does not exist, or is not in this organization.",
    conflict: "It conflicts with something that already exists.",
    payload_too_large: "That is too large.",
    unsupported_media_type: "That type of file is not accepted.",
    throttled: "Too many requests: wait a moment and try again.",
    server_error: "Something went wrong on our side. Try again.",
    not_configured: "This deployment is not set up for it.",
    invalid: "Something in the request is not valid.",
    model_unavailable: "The model cannot be used as configured.",
    model_in_use: "It is still in use.",
    default_inbox: "It is still in use.",
    upstream_error: "The model's provider failed or did not answer in time.",
    interrupted: "A restart interrupted it: try again.",
    channel_connect_failed: "The platform refused the credentials.",
    mcp_timeout: "The MCP server did not answer in time.",
    mcp_unreachable: "The MCP server could not be reached.",
    mcp_unauthorized: "The MCP server refused the credentials.",
    mcp_not_mcp: "That address is not an MCP server.",
    mcp_too_large: "The MCP server's answer is too large.",
  },
  "zh-TW": {
    not_authenticated: "登入已失效，請重新登入。",
    permission_denied: "您沒有執行此操作的權限。",
    not_found: "找不到，或不屬於此組織。",
    conflict: "與既有的項目衝突。",
    payload_too_large: "內容過大。",
    unsupported_media_type: "不接受此類型的檔案。",
    throttled: "請求過於頻繁，請稍候再試。",
    server_error: "服務發生錯誤，請再試一次。",
    not_configured: "此部署尚未設定這項功能。",
    invalid: "請求中有無效的內容。",
    model_unavailable: "無法以目前的設定使用此模型。",
    model_in_use: "仍在使用中。",
    default_inbox: "仍在使用中。",
    upstream_error: "模型供應商失敗或逾時。",
    interrupted: "因服務重新啟動而中斷，請再試一次。",
    channel_connect_failed: "平台拒絕了這組憑證。",
    mcp_timeout: "MCP 伺服器未及時回應。",
    mcp_unreachable: "無法連線到 MCP 伺服器。",
    mcp_unauthorized: "MCP 伺服器拒絕了這組憑證。",
    mcp_not_mcp: "該位址不是 MCP 伺服器。",
    mcp_too_large: "MCP 伺服器的回應過大。",
  },
};

export const problemText = defineStrings(TABLES);

/** Whether the console has words for `code`. */
export const knownProblem = (code: string): code is keyof typeof TABLES.en => code in TABLES.en;
