/** Deletes every object under `prefix`, a page (at most 1,000 keys) at a time. */
export async function deletePrefix(bucket: R2Bucket, prefix: string) {
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix, cursor });
    if (page.objects.length) await bucket.delete(page.objects.map((o) => o.key));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
}

/** An hour (epoch ms of its start) as a segment key names it: `yyyy-mm-ddThh`, UTC. */
export const hourName = (hour: number) => new Date(hour).toISOString().slice(0, 13);

/** Writes `lines` as one gzip NDJSON object (a segment of moved records). */
export async function putSegment(bucket: R2Bucket, key: string, lines: unknown[]) {
  const text = lines.map((line) => JSON.stringify(line)).join("\n");
  const body = await new Response(new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"))).arrayBuffer();
  await bucket.put(key, body, { httpMetadata: { contentType: "application/gzip" } });
}

/** The lines of a segment `putSegment` wrote; `what` names it in the error when a listed segment is missing. */
export async function readSegmentLines<T>(bucket: R2Bucket, key: string, what: string): Promise<T[]> {
  const object = await bucket.get(key);
  // A listed segment is written before its row; without it, records would silently go missing.
  if (!object) throw new Error(`${what} ${key} is listed but missing`);
  const text = await new Response(object.body.pipeThrough(new DecompressionStream("gzip"))).text();
  return text ? text.split("\n").map((line) => JSON.parse(line) as T) : [];
}
