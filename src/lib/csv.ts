/** A CSV file as a download (`xlsxDownload`'s counterpart): an attachment named `filename`, never cached. */
export const csvDownload = (body: ReadableStream<Uint8Array>, filename: string): Response =>
  new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "no-store",
    },
  });
