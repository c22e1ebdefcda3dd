import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { uuidv7 } from "../lib/ids";

const SAFE_ID = /^[\w.:-]{1,128}$/;

/** Every response carries X-Request-Id: the caller's, when it sent a sane one, or a new one. */
export const requestId = () =>
  createMiddleware<AppEnv>(async (c, next) => {
    const incoming = c.req.header("X-Request-Id");
    const id = incoming && SAFE_ID.test(incoming) ? incoming : uuidv7();
    c.set("requestId", id);
    await next();
    c.res.headers.set("X-Request-Id", id);
  });
