import { defineStrings } from "../i18n";

/**
 * What the API's refusals mean, by their stable `code`, for a language other than the API's: its `detail` is English
 * (CONTRACT section 2), so the console leads with these words and keeps the detail beneath (ErrorAlert). Every code
 * of the API's `ErrorCode` has its words here (test/node/error-codes.test.mjs), the ones a page says in its own words
 * (a contact that still has conversations) too, for wherever else it shows.
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
    parse_error: "The request could not be read: its body is malformed.",
    method_not_allowed: "This address does not take that kind of request.",
    reply_interrupted: "A restart on our side cut the reply short; it was not stored. Send the message again.",
    not_supported: "This type of database cannot be queried.",
    web_chat_inactive: "This web chat is closed.",
    file_upload_disabled: "This web chat does not accept files.",
    invalid_credentials: "The e-mail address, password or key is not right.",
    contact_has_conversations: "The contact still has conversations.",
    idempotency_in_progress: "The same request is still under way: wait a moment and try again.",
    idempotency_unfinished:
      "The same request was cut short earlier and may have taken effect: check before sending it again.",
    idempotency_key_reused: "This request's key was already used for another request.",
    channel_not_supported: "This type of channel cannot be connected yet.",
    channel_not_configured: "Save the channel's credentials before connecting it.",
    not_a_messaging_inbox: "Web chat and API inboxes have no channel settings.",
    conversation_not_resolved: "Only a resolved conversation can be rated.",
    export_too_large: "Too many records for one .xlsx file: download them as CSV, or narrow the dates or filters.",
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
    parse_error: "無法讀取請求：內容格式有誤。",
    method_not_allowed: "此網址不接受這種請求。",
    reply_interrupted: "回覆因服務重新啟動而中斷，未儲存，請再傳送一次訊息。",
    not_supported: "無法查詢此類型的資料庫。",
    web_chat_inactive: "此網頁聊天已關閉。",
    file_upload_disabled: "此網頁聊天不接受檔案。",
    invalid_credentials: "電子郵件地址、密碼或金鑰不正確。",
    contact_has_conversations: "此聯絡人仍有對話。",
    idempotency_in_progress: "相同的請求仍在處理中，請稍候再試。",
    idempotency_unfinished: "相同的請求先前被中斷，可能已經生效：請先確認再重新傳送。",
    idempotency_key_reused: "此請求的金鑰已用於另一個請求。",
    channel_not_supported: "目前尚無法連接此類型的通路。",
    channel_not_configured: "請先儲存通路的憑證再連接。",
    not_a_messaging_inbox: "網頁聊天與 API 收件匣沒有通路設定。",
    conversation_not_resolved: "只有已解決的對話可以評分。",
    export_too_large: "紀錄過多，無法放入一個 .xlsx 檔案：請改為下載 CSV，或縮小日期或篩選範圍。",
  },
};

export const problemText = defineStrings(TABLES);

/** Whether the console has words for `code`. */
export const knownProblem = (code: string): code is keyof typeof TABLES.en => code in TABLES.en;
