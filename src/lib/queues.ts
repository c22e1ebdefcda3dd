/** Cloudflare Queues take at most 100 messages in one `sendBatch`, 256 KB of them in all. */
const BATCH_MESSAGES = 100;
/** Below the 256 KB a batch may hold: a message's serialized size differs a little from its JSON. */
const BATCH_BYTES = 200_000;

const encoder = new TextEncoder();

/**
 * Sends `messages` in as few `sendBatch` calls as the queue's limits allow: by count and by size, so a
 * list of large jobs (a knowledge base's purge names 1,000 ids each) is never refused whole.
 */
export async function sendAll<Body>(queue: Queue<Body>, messages: MessageSendRequest<Body>[]): Promise<void> {
  let batch: MessageSendRequest<Body>[] = [];
  let bytes = 0;
  for (const message of messages) {
    const size = encoder.encode(JSON.stringify(message.body)).length;
    if (batch.length && (batch.length === BATCH_MESSAGES || bytes + size > BATCH_BYTES)) {
      await queue.sendBatch(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(message);
    bytes += size;
  }
  if (batch.length) await queue.sendBatch(batch);
}
