/** Reads a server-sent event stream to its end: each event's name and parsed data, in order. */
export async function readEvents(res: Response): Promise<{ event: string; data: Record<string, unknown> }[]> {
  const text = await res.text();
  return text
    .split("\n\n")
    .filter((block) => block.split("\n").some((line) => line.startsWith("data:")))
    .map((block) => {
      const lines = block.split("\n");
      const event =
        lines
          .find((l) => l.startsWith("event:"))
          ?.slice(6)
          .trim() ?? "message";
      const data = lines
        .filter((l) => l.startsWith("data:"))
        .map((l) => l.slice(5).trim())
        .join("\n");
      return { event, data: JSON.parse(data) };
    });
}

/**
 * Reads a live server-sent event stream (one that does not end) event by event: `next(match)`
 * resolves with the first event from now on that `match` accepts, skipping others; it throws
 * "the stream ended" once the stream has ended.
 */
export function liveEvents(res: Response) {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  type LiveEvent = { event: string; data: Record<string, unknown>; id: string | null };
  const queue: LiveEvent[] = [];
  async function next(match: (e: LiveEvent) => boolean = () => true) {
    for (;;) {
      const found = queue.findIndex(match);
      if (found >= 0) return queue.splice(0, found + 1).at(-1)!;
      queue.length = 0;
      const { value, done } = await reader.read();
      if (done) throw new Error("the stream ended");
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const lines = buffer.slice(0, end).split("\n");
        buffer = buffer.slice(end + 2);
        const data = lines
          .filter((l) => l.startsWith("data:"))
          .map((l) => l.slice(5).trim())
          .join("\n");
        const id =
          lines
            .find((l) => l.startsWith("id:"))
            ?.slice(3)
            .trim() ?? null;
        if (data)
          queue.push({
            event:
              lines
                .find((l) => l.startsWith("event:"))
                ?.slice(6)
                .trim() ?? "message",
            data: JSON.parse(data),
            id,
          });
      }
    }
  }
  return { next, close: () => reader.cancel() };
}
