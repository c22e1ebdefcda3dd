/** Reads a server-sent event stream to its end: each event's name and parsed data, in order. */
export async function readEvents(res: Response): Promise<{ event: string; data: Record<string, unknown> }[]> {
  const text = await res.text();
  return text
    .split("\n\n")
    .filter((block) => block.split("\n").some((line) => line.startsWith("data:")))
    .map((block) => {
      const lines = block.split("\n");
      const event = lines.find((l) => l.startsWith("event:"))?.slice(6).trim() ?? "message";
      const data = lines.filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trim()).join("\n");
      return { event, data: JSON.parse(data) };
    });
}
