// Placeholder until the core's intake lands.
import type { Bindings } from "../../env";
export async function receiveEmail(message: ForwardableEmailMessage, env: Bindings, ctx: ExecutionContext): Promise<void> {
  void message; void env; void ctx;
}
