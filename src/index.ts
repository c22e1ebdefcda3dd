import type { Bindings } from "./env";
import { buildApp } from "./app";
import { normalizeRequest } from "./lib/http";
import { handleQueue } from "./queues";
import { runHousekeeping } from "./services/housekeeping";

export { Conversation } from "../durable-objects/conversation";
export { RateLimiter } from "../durable-objects/rate-limiter";
export { VectorIndex } from "../durable-objects/vector-index";
export { ManagedDatabase } from "../durable-objects/managed-database";

const app = buildApp();

export default {
  fetch(request, env, ctx) {
    return app.fetch(normalizeRequest(request), env, ctx);
  },
  queue(batch, env, ctx) {
    return handleQueue(batch, env, ctx);
  },
  scheduled(controller, env, ctx) {
    ctx.waitUntil(runHousekeeping(env, controller.scheduledTime));
  },
} satisfies ExportedHandler<Bindings>;
