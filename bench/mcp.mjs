// `npm run bench -- mcp`: MCP tools on `wrangler dev`, against the in-test MCP server
// (test/support/mcp-server.mjs, the SDK's server) on loopback, with the built-in local model.
// 1. `GET /tools/available-tools/` latency, beside a bare SDK client in Node doing the same
//    (connect, initialize, list tools) in the same run.
// 2. Per-call overhead: an agent reply calls one MCP tool on the session the reply opened; the
//    call's own time as our execution record gives it, against the same call from a bare SDK client
//    on a reused session (the server's own time plus loopback). Target: p50 <= 5 ms.
// 3. What the tool round adds to a whole reply: paired agent and normal replies, minus the call.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { agentBesideNormal, percentile, startServer } from "./lib.mjs";
import { startMcpServer } from "../test/support/mcp-server.mjs";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 100);
const f = (xs, p) => percentile(xs, p).toFixed(1);

async function bareClient(url) {
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

export default async function () {
  const mcp = await startMcpServer();
  const mcpUrl = `${mcp.url}/mcp`;
  const server = await startServer({ port: 8871, vars: { OUTBOUND_ALLOWED_HOSTS: new URL(mcp.url).host } });
  try {
    const { api } = server;
    // 1. available-tools, and a bare client's connect + list in the same run.
    const listed = [];
    const bareList = [];
    for (let i = 0; i < 10; i++)
      await api(`/tools/available-tools/?mcpUrl=${encodeURIComponent(mcpUrl)}`, { method: "GET" });
    for (let i = 0; i < ROUNDS; i++) {
      let t = performance.now();
      await api(`/tools/available-tools/?mcpUrl=${encodeURIComponent(mcpUrl)}`, { method: "GET" });
      listed.push(performance.now() - t);
      t = performance.now();
      const client = await bareClient(mcpUrl);
      await client.listTools();
      bareList.push(performance.now() - t);
      await client.close();
    }
    console.log(
      `available-tools: p50 ${f(listed, 50)} ms, p95 ${f(listed, 95)} ms | bare SDK client connect + list: ` +
        `p50 ${f(bareList, 50)} ms (${ROUNDS} rounds)`,
    );

    // 2 and 3. An agent whose only tool is the server's `add`.
    const tool = await api("/tools/", {
      body: { name: "calc", displayName: "Calculator", toolType: "mcp", mcpUrl, mcpAllowedTools: ["add"] },
    });
    const { agent, normal, timed } = await agentBesideNormal(server, tool, "mcp agent");
    const bare = await bareClient(mcpUrl);
    for (let i = 0; i < 10; i++)
      await timed(agent.id, "add a: 1, b: 2"),
        await timed(normal.id, "add a: 1, b: 2"),
        await bare.callTool({ name: "add", arguments: { a: 1, b: 2 } });
    const ours = [];
    const direct = [];
    const roundAdded = [];
    for (let i = 0; i < ROUNDS; i++) {
      const a = await timed(normal.id, `add a: ${i}, b: 2`);
      const b = await timed(agent.id, `add a: ${i}, b: 2`);
      const [call] = b.reply.message.contentPayload.toolCalls;
      if (call?.status !== "success") throw new Error(`the MCP call did not succeed: ${JSON.stringify(call)}`);
      ours.push(call.durationMs);
      roundAdded.push(b.ms - a.ms - call.durationMs);
      const t = performance.now();
      await bare.callTool({ name: "add", arguments: { a: i, b: 2 } });
      direct.push(performance.now() - t);
    }
    await bare.close();
    const overhead = percentile(ours, 50) - percentile(direct, 50);
    console.log(
      `MCP tool call in an agent reply (session reused): p50 ${f(ours, 50)} ms, p95 ${f(ours, 95)} ms | bare ` +
        `SDK client on a reused session: p50 ${f(direct, 50)} ms`,
    );
    console.log(
      `per-call overhead over the server's own time: p50 ${overhead.toFixed(1)} ms (target <= 5 ms) ` +
        `${overhead <= 5 ? "PASS" : "FAIL"}`,
    );
    console.log(
      `a reply with one MCP call minus a normal reply, minus the call: p50 ${f(roundAdded, 50)} ms, p95 ` +
        `${f(roundAdded, 95)} ms (opening the session and listing the tools included)`,
    );
  } finally {
    await server.stop();
    await mcp.close();
  }
}
