import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { it } from "vitest";
import type { VectorIndex } from "../../../durable-objects/vector-index";

it("measures a 100k x 256 scan", async () => {
  const D = 256, N = 100_000;
  const stub = env.VECTOR_INDEX.get(env.VECTOR_INDEX.idFromName(`bench-${crypto.randomUUID()}`));
  let seed = 1;
  const rnd = () => ((seed = Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0) / 2 ** 32 - 0.5;
  const t0 = Date.now();
  for (let i = 0; i < N; i += 2000) {
    const records = Array.from({ length: 2000 }, (_, k) => ({ id: `v${i + k}`, values: Array.from({ length: D }, rnd), type: "text_node" as const, sourceId: `s${(i + k) % 50}` }));
    await stub.upsert(records);
  }
  console.log(`upsert 100k: ${Date.now() - t0} ms`);
  const q = Array.from({ length: D }, rnd);
  const result = await runInDurableObject(stub, (instance: VectorIndex) => {
    const times: number[] = [];
    const timesF: number[] = [];
    for (let r = 0; r < 30; r++) {
      let t = performance.now();
      instance.query(q, { topK: 10 });
      times.push(performance.now() - t);
      t = performance.now();
      instance.query(q, { topK: 10, filter: { sourceIds: { notIn: ["s1", "s2"] } } });
      timesF.push(performance.now() - t);
    }
    return { times, timesF };
  });
  console.log("scan (ms):", result.times.map((x) => x.toFixed(1)).join(" "));
  console.log("scan+notIn filter (ms):", result.timesF.map((x) => x.toFixed(1)).join(" "));
}, 300_000);
