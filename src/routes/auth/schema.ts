import { z } from "@hono/zod-openapi";
import { MIN_PASSWORD_LENGTH } from "../../lib/placeholders";

export const password = (description: string) =>
  z
    .string()
    .min(MIN_PASSWORD_LENGTH, `Must be at least ${MIN_PASSWORD_LENGTH} characters`)
    .max(128)
    .openapi({ description, example: "correct horse battery" });

/** Password pairs must match; the message lands on the second field, as clients expect. */
export const samePasswords =
  <A extends string, B extends string>(a: A, b: B) =>
  (v: Record<A | B, string>, ctx: z.RefinementCtx) => {
    if (v[a] !== v[b]) ctx.addIssue({ code: "custom", path: [b], message: "The two password fields didn't match." });
  };
