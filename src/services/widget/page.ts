/** Scripts and connections only to this origin; images from anywhere over https (avatars, logos). */
export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; connect-src 'self'; img-src 'self' https: data: blob:; style-src 'self'; " +
  "media-src 'self' blob:; base-uri 'none'; form-action 'none'";

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** The full-page chat's HTML: widget.js in page mode does the rest. */
export function chatPage(chat: { id: string; name: string } | null): string {
  const head =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" ` +
    `content="width=device-width,initial-scale=1,viewport-fit=cover"><link rel="icon" href="data:,">`;
  if (!chat)
    return (
      `${head}<title>Chat not found</title></head><body><h1>Chat not found</h1><p>This chat does not ` +
      `exist.</p></body></html>`
    );
  return (
    `${head}<title>${escapeHtml(chat.name)}</title><meta name="robots" content="noindex"></head>` +
    `<body><script src="/widget.js" data-web-chat-id="${escapeHtml(chat.id)}" data-mode="page" async></script>` +
    `<noscript>This chat needs JavaScript.</noscript></body></html>`
  );
}
