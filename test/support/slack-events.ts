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
