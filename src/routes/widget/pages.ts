import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { getDb } from "../../db";
import { isUuid } from "../../lib/ids";
import { publicWebChat } from "../../services/widget/web-chats";
import { webChatForHost } from "../../services/widget/domains";
import { chatPage, PAGE_CSP } from "../../services/widget/page";

/**
 * The full-page chat: `/chat/{webChatId}` (links, `backUrl`, share links) and `/` on a web chat's
 * active custom domain (elsewhere `/` redirects to the console). The page is a shell that loads `/widget.js` (a static
 * asset) in page mode.
 */
export function registerWidgetPages(app: OpenAPIHono<AppEnv>) {
  const serve = async (c: Context<AppEnv>, id: string | null) => {
    const chat = id && isUuid(id) ? await publicWebChat(getDb(c.env.DB), id) : null;
    const headers = {
      "Content-Security-Policy": PAGE_CSP,
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "strict-origin-when-cross-origin",
    };
    if (!chat) return c.html(chatPage(null), 404, headers);
    return c.html(chatPage({ id: chat.webChat.id, name: chat.webChat.name }), 200, {
      ...headers,
      "Cache-Control": "no-cache",
    });
  };
  app.get("/chat/:id", (c) => serve(c, c.req.param("id")));
  app.get("/chat/:id/", (c) => serve(c, c.req.param("id")));
  app.get("/", async (c) => {
    const id = await webChatForHost(getDb(c.env.DB), c.req.header("Host") ?? new URL(c.req.url).host);
    // Anywhere else `/` is the service's own address: a person opening it wants the console.
    if (!id) return c.redirect("/console/", 302);
    return serve(c, id);
  });
}
