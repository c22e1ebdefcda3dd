import type { Bindings } from "./env";
import { fetchApp } from "./app";
import { normalizeRequest } from "./lib/http";
import { lazy } from "./lib/lazy";

export { Conversation } from "../durable-objects/conversation-entry";
export { RateLimiter } from "../durable-objects/rate-limiter";
export { VectorIndex } from "../durable-objects/vector-index";
export { ManagedDatabase } from "../durable-objects/managed-database";
export { InboxEvents } from "../durable-objects/inbox-events";

/** wrangler.toml's every-minute cron: it folds the conversation search's pending terms; any other runs housekeeping. */
const FOLD_CRON = "* * * * *";

// Queue consumers and housekeeping are imported when a batch or a cron event arrives: an isolate
// started for a request does not pay for them (docs/decisions.md, "Cold start").
const queues = lazy(() => import("./queues"));
const emailHandler = lazy(() => import("./services/channels/email-handler"));
const searchTerms = lazy(() => import("./services/conversation/search-terms"));
const housekeeping = lazy(() => import("./services/housekeeping"));

export default {
  fetch(request, env, ctx) {
    return fetchApp(normalizeRequest(request), env, ctx);
  },
  async queue(batch, env, ctx) {
    const { handleQueue } = await queues();
    return handleQueue(batch, env, ctx);
  },
  email(message, env, ctx) {
    return emailHandler().then(({ receiveEmail }) => receiveEmail(message, env, ctx));
  },
  scheduled(controller, env, ctx) {
    ctx.waitUntil(
      controller.cron === FOLD_CRON
        ? searchTerms().then(({ runTermsCron }) => runTermsCron(env, controller.scheduledTime))
        : housekeeping().then(({ runHousekeeping }) => runHousekeeping(env, controller.scheduledTime)),
    );
  },
} satisfies ExportedHandler<Bindings>;
