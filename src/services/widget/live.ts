import type { WebChatSettings } from "../../db/schema";
import type { MessageRecord } from "../records/messages";
import { publicMessage } from "./messages";

const encoder = new TextEncoder();

/**
 * A conversation object's live events (`subscribe`) as the visitor may see them: each stored
 * message in its public form (`event: message`), pings as they are; reply deltas and tool events
 * are left out (the visitor's own reply stream carries those). This is how a human agent's reply
 * reaches the widget at once.
 */
export function liveMessages(source: ReadableStream<Uint8Array>, settings: WebChatSettings): ReadableStream<Uint8Array> {
  const decoder = new TextDecoder();
  let buffer = "";
  return source.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode(": connected\n\n")); // the response starts at once
      },
      transform(chunk, controller) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block.startsWith(":")) {
            controller.enqueue(encoder.encode(`${block}\n\n`));
            continue;
          }
          const raw = block.match(/^data: (.*)$/m)?.[1];
          if (!raw || block.match(/^event: (\S+)/m)?.[1] !== "message") continue;
          const message = publicMessage(JSON.parse(raw) as MessageRecord, settings);
          controller.enqueue(encoder.encode(`id: ${message.id}\nevent: message\ndata: ${JSON.stringify(message)}\n\n`));
        }
      },
    }),
  );
}
