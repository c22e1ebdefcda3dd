// `npm run bench -- auth`: requests/s of an authenticated GET /api/v1/users/current/ (key lookup,
// rate limiter, user read) against the bare /health route of the same worker, and their ratio.
// Rounds alternate between the two routes so that drift of the machine hits both alike.
import autocannon from "autocannon";
import { median, startServer } from "./lib.mjs";

const ROUNDS = 3;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = 32;

const load = (url, headers = {}) =>
  autocannon({ url, headers, connections: CONNECTIONS, duration: SECONDS }).then((r) => ({
    rps: r.requests.average,
    non2xx: r.non2xx,
    errors: r.errors,
    p50: r.latency.p50,
    p99: r.latency.p99,
  }));

export default async function () {
  const server = await startServer();
  try {
    const authed = `${server.base}/api/v1/users/current/`;
    const check = await fetch(authed, { headers: server.headers });
    if (check.status !== 200) throw new Error(`authenticated route answered ${check.status}`);
    await load(`${server.base}/health`);
    await load(authed, server.headers);
    const bare = [];
    const auth = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const b = await load(`${server.base}/health`);
      const a = await load(authed, server.headers);
      if (a.non2xx || a.errors || b.non2xx || b.errors)
        throw new Error(`failures in round ${round}: ${JSON.stringify({ a, b })}`);
      bare.push(b.rps);
      auth.push(a.rps);
      console.log(
        `round ${round}: bare ${b.rps.toFixed(0)} req/s (p50 ${b.p50} ms, p99 ${b.p99} ms) | authenticated ` +
          `${a.rps.toFixed(0)} req/s (p50 ${a.p50} ms, p99 ${a.p99} ms)`,
      );
    }
    const ratio = median(auth) / median(bare);
    console.log(
      `\nbare GET /health:                      ${median(bare).toFixed(0)} req/s (median of ${ROUNDS} x ` +
        `${SECONDS}s, ${CONNECTIONS} connections)`,
    );
    console.log(`authenticated GET /api/v1/users/current/: ${median(auth).toFixed(0)} req/s`);
    console.log(`ratio: ${(ratio * 100).toFixed(1)}% (target >= 60%) ${ratio >= 0.6 ? "PASS" : "FAIL"}`);
  } finally {
    await server.stop();
  }
}
