/**
 * Slack's Events API envelope (docs.slack.dev, message.im) around `event`: what the workspace T061EG9R6 sends the app
 * whose bot user is `botUserId`.
 */
export const slackEnvelope = (
  event: Record<string, unknown>,
  { botUserId, eventId, eventTime }: { botUserId: string; eventId: string; eventTime: number },
) => ({
  token: "one-long-verification-token",
  team_id: "T061EG9R6",
  api_app_id: "A0PNCHHK2",
  event,
  type: "event_callback",
  authorizations: [
    { enterprise_id: null, team_id: "T061EG9R6", user_id: botUserId, is_bot: true, is_enterprise_install: false },
  ],
  event_id: eventId,
  event_time: eventTime,
});

/**
 * Slack's block_actions payload (docs.slack.dev, interactivity): Egon Spengler of T061EG9R6 taps the button `value`
 * under the message `messageTs` of `channel` (in the thread `threadTs`, when it is in one), at `actionTs`.
 */
export const slackButtonTap = ({
  channel,
  messageTs,
  threadTs,
  value,
  actionTs,
}: {
  channel: { id: string; name: string };
  messageTs: string;
  threadTs?: string;
  value: string;
  actionTs: string;
}) => ({
  type: "block_actions",
  user: { id: "U2147483697", username: "spengler", team_id: "T061EG9R6" },
  team: { id: "T061EG9R6", domain: "ghostbusters" },
  container: {
    type: "message",
    message_ts: messageTs,
    channel_id: channel.id,
    is_ephemeral: false,
    ...(threadTs ? { thread_ts: threadTs } : {}),
  },
  channel,
  trigger_id: "12321423423.333649436676.d8c1bb837935619ccad0f624c448ffb3",
  actions: [
    {
      type: "button",
      action_id: "quick_reply_1",
      block_id: "b1",
      text: { type: "plain_text", text: value },
      value,
      action_ts: actionTs,
    },
  ],
});
