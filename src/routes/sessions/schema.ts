import { z } from "@hono/zod-openapi";
import { ConsoleSessionSchema, ConsoleSessionStateSchema } from "../../services/records/console-sessions";

export { ConsoleSessionSchema, ConsoleSessionStateSchema };

export const SignIn = z
  .object({
    email: z.email().optional().openapi({ description: "With `password`", example: "ada@example.com" }),
    password: z
      .string()
      .min(1)
      .max(128)
      .optional()
      .openapi({ description: "With `email`", example: "correct horse battery" }),
    apiKey: z.string().min(1).max(200).optional().openapi({
      description: "Instead of `email` and `password`: an API key of the user (the bootstrap key, say)",
      example: "ak_4f3aB...",
    }),
  })
  .superRefine((v, ctx) => {
    if (v.apiKey !== undefined) {
      if (v.email !== undefined || v.password !== undefined)
        ctx.addIssue({ code: "custom", path: ["apiKey"], message: "Send either apiKey, or email and password." });
      return;
    }
    if (v.email === undefined)
      ctx.addIssue({ code: "custom", path: ["email"], message: "Required (or sign in with apiKey)." });
    if (v.password === undefined)
      ctx.addIssue({ code: "custom", path: ["password"], message: "Required (or sign in with apiKey)." });
  });
