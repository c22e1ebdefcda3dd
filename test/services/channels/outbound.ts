// A reply as the delivery queue hands it to a platform's sender (the fields every test leaves as they are), for the
// platforms' unit tests.
import type { OutboundMessage } from "../../../src/services/channels/types";

/** An assistant's plain reply to `threadKey` with `text`, changed by `over`. */
export const outboundMessage = (
  over: Partial<OutboundMessage> & Pick<OutboundMessage, "threadKey" | "text">,
): OutboundMessage => ({
  deliveryId: crypto.randomUUID(),
  citations: [],
  quickReplies: [],
  attachments: [],
  senderName: "Assistant",
  fromPerson: false,
  lastInboundAt: 0,
  at: 0,
  sent: [],
  ...over,
});
