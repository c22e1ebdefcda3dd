import type { Router } from "../../lib/openapi";
import { registerCreateChatCompletion } from "./create";

/** The OpenAI-compatible AI gateway. */
export function registerChatCompletionRoutes(r: Router) {
  registerCreateChatCompletion(r);
}
