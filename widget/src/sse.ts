// Server-sent events read from a fetch body: the widget's replies and the console's try-it panel.

/**
 * Server-sent events of a response body: `on(id, event, data)` for each event with data (JSON).
 * Throws when the stream ends before an event with `done: true`: it was cut, and the caller may resume it.
 */
export async function readEvents(body: ReadableStream<BufferSource>, on: (id: string | null, event: string, data: Record<string, unknown>) => void) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let finished = false;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let id: string | null = null;
      let event = "message";
      const data: string[] = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("id:")) id = line.slice(3).trim();
        else if (line.startsWith("event:")) event = line.slice(6).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
      }
      if (!data.length) continue;
      const parsed = JSON.parse(data.join("\n")) as Record<string, unknown>;
      on(id, event, parsed);
      if (parsed.done) finished = true;
    }
  }
  if (!finished) throw new TypeError("stream ended early");
}
