import { logWarn } from "../lib/log";

/**
 * Acknowledging or retrying a message of a queue event the runtime has already ended (cancelled as
 * hung, or past its limits) throws: that event can no longer settle anything, and every message it
 * did not settle is delivered again. Consumers settle through these, so that case is a warning
 * rather than an uncaught rejection on a dead context.
 */
function guarded(settle: () => void, messageId?: string) {
  try {
    settle();
  } catch (err) {
    logWarn("queue event ended before it settled; redelivered later", { messageId, error: String(err) });
  }
}

/**
 * Seconds before a message that failed its `attempts`-th time is tried again: `first` after the first
 * failure, doubling each time, at most `max` (each queue's figures are in its consumer).
 */
export const backoffSeconds = (attempts: number, { first, max }: { first: number; max: number }) =>
  Math.min(max, first * 2 ** Math.max(0, attempts - 1));

export const ack = (message: Message) => guarded(() => message.ack(), message.id);
export const retry = (message: Message, delaySeconds: number) =>
  guarded(() => message.retry({ delaySeconds }), message.id);
export const ackAll = (batch: MessageBatch) => guarded(() => batch.ackAll());
export const retryAll = (batch: MessageBatch, delaySeconds: number) => guarded(() => batch.retryAll({ delaySeconds }));
