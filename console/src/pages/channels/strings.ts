import { defineStrings } from "../../i18n";

export const t = defineStrings({
  en: {
    title: "Channels",
    intro:
      "Inboxes on messaging platforms (LINE, Telegram, Messenger, Instagram, WhatsApp, Slack, e-mail). Open " +
      "one to connect it.",
    none: "No messaging inbox yet. Create one to connect an assistant to a platform.",
    name: "Name",
    platform: "Platform",
    assistant: "Assistant",
    noAssistant: "None",
    created: "Created",
    open: "Channel settings",
    openNamed: "Channel settings of {name}",
    newInbox: "New channel",
    newInboxIntro:
      "A messaging inbox on one platform; its assistant answers the people who write to it there. Connect it " +
      "after creating it.",
    assistantHint: "Who answers on the platform. It can be changed on the inbox later.",
    notYet: "{name} (not connectable yet)",
    createdToast: "{name} created. Fill in its settings and connect it.",
    back: "All channels",
    pageTitle: "{name}: {platform}",
    status: "Status",
    not_connected: "Not connected",
    connected: "Connected",
    failing: "Failing",
    cannotConnect: "Not connectable yet",
    unknownStatus: "Unknown",
    lastEvent: "Last event",
    never: "None yet",
    waiting_connect: "Send the {platform} account a message: it shows here and in the inbox.",
    waiting_pasted:
      "None has come yet: check that the webhook URL below is saved in {platform}'s settings, then send a message.",
    waiting_routing:
      "None has come yet: check that the domain's e-mail routing sends this address to the platform's worker, then " +
      "send it an e-mail.",
    waiting_verified:
      "None has come yet, though the webhook URL is verified: check the events it is subscribed to (the steps " +
      "below), then send a message.",
    waiting_refused: "None can come until {platform}'s check of the webhook URL passes (Webhook check, below).",
    webhookCheck: "Webhook check",
    verified_meta: "Meta verified the webhook at {time}.",
    verified_slack: "Slack verified the events URL at {time}.",
    unverified_meta:
      "Not yet: Meta checks it when the webhook URL and verify token below are saved in the app's Webhooks " +
      "(Verify and save).",
    unverified_slack:
      "Not yet: Slack checks it when the webhook URL below is saved as the Request URL under Event Subscriptions.",
    refused_wrong_verify_token:
      "Meta's check at {time} was refused: the verify token it sent is not this channel's. Paste the verify token " +
      "below into the app's Webhooks and press Verify and save again.",
    refused_bad_signature:
      "Slack's check at {time} was refused: it was not signed with this channel's signing secret. Copy the Signing " +
      "Secret again from the app's Basic Information, save it above, then Retry the Request URL under Event " +
      "Subscriptions.",
    lastError: "Last error",
    settings: "Settings",
    secretHint: "Saved: {masked}. Leave it empty to keep it.",
    secretUnset: "Not set yet.",
    save: "Save",
    saved: "Settings saved. Connect to check them with {platform}.",
    connect: "Connect",
    connectHint: "Connect saves what you changed and checks the settings with the platform.",
    missing: "Fill in {fields}, then Connect.",
    connectedToast: "{platform} answered: {detail}",
    connectFailed: "{platform} refused: {detail}",
    disconnect: "Disconnect",
    disconnectTitle: "Disconnect {platform}?",
    disconnectMessage:
      "The {platform} credentials are forgotten and the assistant stops answering there; what {platform} still " +
      "sends is refused. The inbox, its contacts and conversations stay. To connect again, enter the credentials " +
      "again.",
    disconnectedToast: "{platform} disconnected.",
    disconnectedRefused:
      "Disconnected here, but {platform} did not remove its webhook ({detail}). Remove it in {platform}'s " +
      "settings; until then what it sends is refused.",
    readOnly: "You may look at this channel; changing it needs the permission to manage inboxes.",
    notConnectable:
      "{platform} inboxes cannot be connected yet: their conversations come only through the API for now.",
    setup: "Connect it on {platform}",
    webhookUrl: "Webhook URL",
    verifyToken: "Verify token",
    copyWebhook: "Copy the webhook URL",
    copyVerify: "Copy the verify token",
    docs: "{platform}'s documentation",
    emailName: "E-mail",
    f_channelId: "Channel ID",
    f_channelSecret: "Channel secret",
    f_channelAccessToken: "Channel access token (long-lived)",
    f_botToken: "Bot token",
    f_pageId: "Page ID",
    f_pageAccessToken: "Page access token",
    f_appSecret: "App secret",
    f_instagramAccountId: "Instagram account ID",
    f_phoneNumberId: "Phone number ID",
    f_businessAccountId: "WhatsApp Business Account ID",
    f_accessToken: "System user access token",
    f_signingSecret: "Signing secret",
    f_address: "Address",
    f_fromName: "Sender name",
    h_fromName: "Optional: left empty, each reply carries the name of who sent it (the assistant or a team member).",
    steps_line_1:
      "In the LINE Developers console, open the provider's Messaging API channel. Copy the Channel ID and " +
      "Channel secret (Basic settings) and issue a long-lived Channel access token (Messaging API tab) into " +
      "the fields above; Save.",
    steps_line_2:
      "Press Connect: it checks the credentials with LINE and sets the webhook URL below as the channel's " +
      "Webhook URL (it can also be pasted there by hand).",
    steps_line_3: "On the Messaging API tab, turn Use webhook on and Auto-reply messages off.",
    steps_telegram_1: "In Telegram, talk to @BotFather: /newbot makes the bot and gives its token.",
    steps_telegram_2: "Paste the token above and Save.",
    steps_telegram_3:
      "Press Connect: it checks the token and sets the bot's webhook to this inbox itself; there is nothing to paste.",
    steps_messenger_1:
      "In a Meta Business app with Messenger, copy the Page ID, a Page access token (pages_messaging, " +
      "pages_manage_metadata) and the App secret (App settings > Basic) into the fields above; Save.",
    steps_messenger_2:
      "In the app's Webhooks, paste the webhook URL below as the Callback URL and the verify token as the " +
      "Verify token; subscribe to the fields messages, messaging_postbacks, message_reactions and message_edits.",
    steps_messenger_3: "Press Connect: it checks the token and subscribes the Page to the app.",
    steps_instagram_1:
      "In the Meta app, copy the ID of the Instagram professional account linked to the Page, the Page's " +
      "access token (instagram_basic, instagram_manage_messages) and the App secret into the fields above; " +
      "Save.",
    steps_instagram_2:
      "In the app's Webhooks, object Instagram, paste the webhook URL below as the Callback URL and the " +
      "verify token as the Verify token; subscribe to the messages field.",
    steps_instagram_3: "Press Connect: it checks the credentials with Meta.",
    steps_whatsapp_1:
      "In the Meta app > WhatsApp > API Setup, copy the Phone number ID and the WhatsApp Business Account ID, " +
      "and make a System User access token (whatsapp_business_messaging, whatsapp_business_management); the " +
      "App secret is under App settings > Basic. Save.",
    steps_whatsapp_2:
      "In WhatsApp > Configuration, paste the webhook URL below as the Callback URL and the verify token, " +
      "Verify and save, and subscribe to the messages field.",
    steps_whatsapp_3: "Press Connect: it checks the token and subscribes the app to the business account.",
    steps_slack_1:
      "In your Slack app, add the bot scopes chat:write, users:read, files:read, im:history, " +
      "app_mentions:read and reactions:read, and for support channels channels:read (to title their " +
      "conversations by the channel's name) and channels:history (OAuth & Permissions), install it to the " +
      "workspace and copy the Bot User OAuth Token (xoxb-…); the Signing Secret is under Basic Information. " +
      "Save, then Connect.",
    steps_slack_2: "Under Event Subscriptions, turn events on and paste the webhook URL below as the Request URL.",
    steps_slack_3:
      "Subscribe to the bot events message.im, app_mention and reaction_added (and message.channels for " +
      "support channels, answered in a thread), and save.",
    steps_slack_4:
      "Under Interactivity, paste the same URL as the Request URL (for the conversation starters' buttons).",
    steps_email_1: "Fill in the address this inbox answers as (and a sender name if you want one); Save, then Connect.",
    steps_email_2:
      "In the Cloudflare dashboard > Email > Email Routing > Routing rules, add a rule that sends this " +
      "address to this Worker (Send to a Worker).",
  },
  "zh-TW": {
    title: "通路",
    intro: "位於訊息平台（LINE、Telegram、Messenger、Instagram、WhatsApp、Slack、電子郵件）的收件匣。開啟後即可連線。",
    none: "尚無訊息收件匣。建立一個，將助理連上平台。",
    name: "名稱",
    platform: "平台",
    assistant: "助理",
    noAssistant: "無",
    created: "建立時間",
    open: "通路設定",
    openNamed: "{name} 的通路設定",
    newInbox: "新增通路",
    newInboxIntro: "某個平台上的訊息收件匣；其助理會回覆在該平台傳訊的人。建立後再連線。",
    assistantHint: "在平台上回覆的助理，之後可在收件匣變更。",
    notYet: "{name}（尚無法連線）",
    createdToast: "已建立 {name}。請填寫設定並連線。",
    back: "所有通路",
    pageTitle: "{name}：{platform}",
    status: "狀態",
    not_connected: "未連線",
    connected: "已連線",
    failing: "連線異常",
    cannotConnect: "尚無法連線",
    unknownStatus: "不明",
    lastEvent: "最近事件",
    never: "尚無",
    waiting_connect: "傳一則訊息給 {platform} 帳號：訊息會顯示在這裡與收件匣。",
    waiting_pasted: "尚未收到任何事件：請確認下方的 Webhook 網址已儲存在 {platform} 的設定中，再傳一則訊息。",
    waiting_routing: "尚未收到任何事件：請確認網域的電子郵件路由會將此地址轉給本平台的 Worker，再寄一封信。",
    waiting_verified: "尚未收到任何事件，但 Webhook 網址已通過驗證：請確認已訂閱的事件（見下方步驟），再傳一則訊息。",
    waiting_refused: "{platform} 對 Webhook 網址的驗證通過前，不會收到任何事件（見下方「Webhook 驗證」）。",
    webhookCheck: "Webhook 驗證",
    verified_meta: "Meta 已於 {time} 驗證 Webhook。",
    verified_slack: "Slack 已於 {time} 驗證事件網址。",
    unverified_meta:
      "尚未驗證：在應用程式的 Webhooks 儲存下方的 Webhook 網址與驗證權杖（驗證並儲存）時，Meta 會進行驗證。",
    unverified_slack: "尚未驗證：在 Event Subscriptions 將下方 Webhook 網址儲存為 Request URL 時，Slack 會進行驗證。",
    refused_wrong_verify_token:
      "Meta 於 {time} 的驗證遭拒：它送出的驗證權杖與此通路的不符。請將下方的驗證權杖貼到應用程式的 Webhooks，再按一次「驗證並儲存」。",
    refused_bad_signature:
      "Slack 於 {time} 的驗證遭拒：請求並非以此通路的 Signing Secret 簽署。請從應用程式的 Basic Information 重新複製 Signing " +
      "Secret，在上方儲存後，於 Event Subscriptions 重試 Request URL。",
    lastError: "最近錯誤",
    settings: "設定",
    secretHint: "已儲存：{masked}。留空即保留原值。",
    secretUnset: "尚未設定。",
    save: "儲存",
    saved: "設定已儲存。請按「連線」向 {platform} 驗證。",
    connect: "連線",
    connectHint: "「連線」會先儲存您的變更，再向平台驗證設定。",
    missing: "請先填寫{fields}，再按「連線」。",
    connectedToast: "{platform} 回覆：{detail}",
    connectFailed: "{platform} 拒絕：{detail}",
    disconnect: "中斷連線",
    disconnectTitle: "要中斷 {platform} 連線嗎？",
    disconnectMessage:
      "將清除 {platform} 的憑證，助理也不再於該處回覆；{platform} 之後送來的內容會被拒絕。收件匣、聯絡人與對話都會保留。" +
      "若要重新連線，請再次輸入憑證。",
    disconnectedToast: "已中斷 {platform} 連線。",
    disconnectedRefused:
      "已在此中斷連線，但 {platform} 未移除其 Webhook（{detail}）。請到 {platform} 的設定中移除；在那之前，它送來的內容都會被拒絕。",
    readOnly: "您可檢視此通路；變更需要管理收件匣的權限。",
    notConnectable: "{platform} 收件匣目前尚無法連線：其對話暫時只能透過 API 進入。",
    setup: "在 {platform} 上連線",
    webhookUrl: "Webhook 網址",
    verifyToken: "驗證權杖",
    copyWebhook: "複製 Webhook 網址",
    copyVerify: "複製驗證權杖",
    docs: "{platform} 的說明文件",
    emailName: "電子郵件",
    f_channelId: "Channel ID",
    f_channelSecret: "Channel secret",
    f_channelAccessToken: "Channel access token（長期）",
    f_botToken: "Bot 權杖",
    f_pageId: "粉絲專頁 ID",
    f_pageAccessToken: "粉絲專頁存取權杖",
    f_appSecret: "應用程式密鑰",
    f_instagramAccountId: "Instagram 帳號 ID",
    f_phoneNumberId: "電話號碼 ID",
    f_businessAccountId: "WhatsApp Business 帳號 ID",
    f_accessToken: "系統使用者存取權杖",
    f_signingSecret: "Signing secret",
    f_address: "地址",
    f_fromName: "寄件人名稱",
    h_fromName: "選填：留空時，每封回覆以發送者（助理或團隊成員）的名稱寄出。",
    steps_line_1:
      "在 LINE Developers 主控台開啟提供者的 Messaging API channel，將 Channel ID 與 Channel secret（Basic settings）以及發行的長期 " +
      "Channel access token（Messaging API 分頁）填入上方欄位，然後儲存。",
    steps_line_2:
      "按「連線」：會向 LINE 驗證憑證，並將下方 Webhook 網址設為該 channel 的 Webhook URL（也可以手動貼上）。",
    steps_line_3: "在 Messaging API 分頁開啟 Use webhook，並關閉自動回應訊息（Auto-reply messages）。",
    steps_telegram_1: "在 Telegram 與 @BotFather 對話：/newbot 會建立機器人並給您權杖。",
    steps_telegram_2: "將權杖貼到上方後儲存。",
    steps_telegram_3: "按「連線」：會驗證權杖並自動將機器人的 Webhook 設為此收件匣，無須貼上任何內容。",
    steps_messenger_1:
      "在含 Messenger 的 Meta 商業應用程式中，將粉絲專頁 ID、粉絲專頁存取權杖（pages_messaging、pages_manage_metadata）與應用程式密鑰（應用程式設定 > " +
      "基本資料）填入上方欄位，然後儲存。",
    steps_messenger_2:
      "在應用程式的 Webhooks 中，將下方 Webhook 網址貼為回呼網址（Callback URL），驗證權杖貼為 Verify token；訂閱 messages、" +
      "messaging_postbacks、message_reactions 與 message_edits 欄位。",
    steps_messenger_3: "按「連線」：會驗證權杖並讓粉絲專頁訂閱此應用程式。",
    steps_instagram_1:
      "在 Meta 應用程式中，將連結粉絲專頁的 Instagram 專業帳號 ID、粉絲專頁存取權杖（instagram_basic、instagram_manage_messages）與應用程式密鑰填入上方欄位，然後儲存。",
    steps_instagram_2:
      "在應用程式的 Webhooks 中選擇 Instagram 物件，將下方 Webhook 網址貼為回呼網址，驗證權杖貼為 Verify token；訂閱 messages 欄位。",
    steps_instagram_3: "按「連線」：會向 Meta 驗證憑證。",
    steps_whatsapp_1:
      "在 Meta 應用程式 > WhatsApp > API 設定中，複製電話號碼 ID 與 WhatsApp Business 帳號 " +
      "ID，並建立系統使用者存取權杖（whatsapp_business_messaging、whatsapp_business_management）；應用程式密鑰在應用程式設定 > 基本資料。然後儲存。",
    steps_whatsapp_2:
      "在 WhatsApp > 設定（Configuration）中，將下方 Webhook 網址貼為回呼網址並填入驗證權杖，驗證並儲存，再訂閱 messages 欄位。",
    steps_whatsapp_3: "按「連線」：會驗證權杖並讓應用程式訂閱該商業帳號。",
    steps_slack_1:
      "在您的 Slack 應用程式中加入 bot 權限範圍 chat:write、users:read、files:read、im:history、app_mentions:read 與 " +
      "reactions:read，客服頻道另加 channels:read（以頻道名稱作為對話標題）與 channels:history（OAuth & Permissions），" +
      "安裝到工作區並複製 Bot User OAuth Token（xoxb-…）；Signing Secret 在 Basic Information。儲存後按「連線」。",
    steps_slack_2: "在 Event Subscriptions 開啟事件，將下方 Webhook 網址貼為 Request URL。",
    steps_slack_3:
      "訂閱 bot 事件 message.im、app_mention 與 reaction_added（客服頻道另加 message.channels，會在討論串中回覆），並儲存。",
    steps_slack_4: "在 Interactivity 將同一網址貼為 Request URL（供對話開場按鈕使用）。",
    steps_email_1: "填寫此收件匣使用的地址（需要時再填寄件人名稱）；儲存後按「連線」。",
    steps_email_2:
      "在 Cloudflare 主控台 > Email > Email Routing > 路由規則中，新增將此地址送到此 Worker 的規則（Send to a Worker）。",
  },
});

export type Key = Parameters<typeof t>[0];
/** A key built from a platform's or a field's name (every one of them is in the tables above). */
export const tk = (key: string, vars?: Record<string, string | number>) => t(key as Key, vars);
