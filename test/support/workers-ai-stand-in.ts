import { standIn } from "./bindings";

/**
 * Stands in for the Workers AI binding (`env.AI`), which has no local runtime: it answers a chat as
 * the binding does (server-sent events of `{"response": "<delta>"}`, then `[DONE]`), and fails as the
 * binding does. `faults` are used up one per call, in order: `upstream` throws what the binding throws
 * for an answer that is not ok (an `InferenceUpstreamError` "<internal code>: <description>", with
 * `lastRequestHttpStatusCode` set), `network` a connection lost before any answer.
 */
export type WorkersAiFault =
  | { upstream: { status: number; internalCode: number; description: string } }
  | { network: true };

export const CAPACITY_429 = {
  upstream: { status: 429, internalCode: 3040, description: "Capacity temporarily exceeded, please try again." },
};
export const DAILY_LIMIT_429 = {
  upstream: {
    status: 429,
    internalCode: 3036,
    description: "You have used up your daily free allocation of 10,000 neurons.",
  },
};
export const INTERNAL_500 = { upstream: { status: 500, internalCode: 3043, description: "Internal server error" } };
export const NETWORK_LOST = { network: true } as const;

/** The stand-in, typed as the `AI` binding, with the `calls` it received (each a chat's inputs). */
export function workersAiStandIn(faults: WorkersAiFault[] = [], answer = "Hello from Workers AI.") {
  const calls: { model: string; inputs: AiTextGenerationInput }[] = [];
  const binding = {
    calls,
    lastRequestHttpStatusCode: null as number | null,
    async run(model: string, inputs: AiTextGenerationInput) {
      calls.push({ model, inputs });
      const fault = faults.shift();
      if (fault && "network" in fault) throw new Error("Network connection lost.");
      if (fault) {
        binding.lastRequestHttpStatusCode = fault.upstream.status;
        const err = new Error(`${fault.upstream.internalCode}: ${fault.upstream.description}`);
        err.name = "InferenceUpstreamError";
        throw err;
      }
      binding.lastRequestHttpStatusCode = 200;
      const words = answer.split(/(?= )/);
      const wire = [...words.map((w) => `data: ${JSON.stringify({ response: w })}\n\n`), "data: [DONE]\n\n"].join("");
      return new Response(wire).body;
    },
  };
  return standIn("AI", binding);
}
